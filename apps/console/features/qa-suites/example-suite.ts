/** What the "New suite" editor starts with: a small suite that is valid as it stands. */
export const exampleSuiteText = `name: Review summary
description: Summaries of product reviews, on three models
targets:
  - model: gpt-test
  - model: claude-test
  - model: gemini-test
    temperature: 0
cases:
  - id: battery-review
    prompt: "Summarise this review: Great battery, weak camera."
    schema:
      type: object
      properties:
        sentiment: { type: string, enum: [positive, mixed, negative] }
        pros: { type: array, items: { type: string } }
      required: [sentiment, pros]
      additionalProperties: false
    assertions:
      - kind: one-of
        pointer: /sentiment
        values: [mixed, positive]
      - kind: length
        pointer: /pros
        min: 1
`;
