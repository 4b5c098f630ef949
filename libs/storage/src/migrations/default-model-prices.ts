/**
 * The list prices the three providers documented on `DEFAULT_PRICES_TAKEN_AT` (2025-08-15), in
 * US micro-dollars per million tokens ($2.50 / 1M tokens = 2_500_000), seeded by migration 0014.
 * Shipped data: never edit a row here — admins add newer versions through the API.
 *
 * - `cachedInput`: a cache read (OpenAI's cached input, Anthropic's cache read, Gemini's context
 *   cache). Anthropic's cache writes (1.25× input) are billed as plain input here.
 * - `thinking`: reasoning / thinking tokens are billed as output by all three.
 * - Gemini 2.5 Pro: the prompts ≤ 200k tokens tier (longer prompts cost more: add a version or a
 *   price of your own if most of yours are longer).
 */
export interface DefaultModelPrice {
  readonly model: string;
  readonly provider: 'openai' | 'anthropic' | 'gemini';
  readonly input: number;
  readonly cachedInput: number;
  readonly output: number;
  readonly thinking: number;
}

/** 2025-08-15T00:00:00Z: when the prices below were read from the providers' pricing pages. */
export const DEFAULT_PRICES_TAKEN_AT = Date.UTC(2025, 7, 15);

/** Dollars per million tokens → micro-dollars per million tokens, exactly (at most 6 decimals). */
function usd(dollars: string): number {
  const [whole = '0', fraction = ''] = dollars.split('.');
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
}

function price(
  provider: DefaultModelPrice['provider'],
  models: readonly string[],
  input: string,
  cachedInput: string,
  output: string,
): DefaultModelPrice[] {
  return models.map((model) => ({
    model,
    provider,
    input: usd(input),
    cachedInput: usd(cachedInput),
    output: usd(output),
    thinking: usd(output),
  }));
}

export const defaultModelPrices: readonly DefaultModelPrice[] = [
  // OpenAI (platform.openai.com/docs/pricing, standard tier)
  ...price('openai', ['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'], '2.50', '1.25', '10.00'),
  ...price('openai', ['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'], '0.15', '0.075', '0.60'),
  ...price('openai', ['gpt-4.1', 'gpt-4.1-2025-04-14'], '2.00', '0.50', '8.00'),
  ...price('openai', ['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14'], '0.40', '0.10', '1.60'),
  ...price('openai', ['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'], '0.10', '0.025', '0.40'),
  ...price('openai', ['gpt-5', 'gpt-5-2025-08-07'], '1.25', '0.125', '10.00'),
  ...price('openai', ['gpt-5-mini', 'gpt-5-mini-2025-08-07'], '0.25', '0.025', '2.00'),
  ...price('openai', ['gpt-5-nano', 'gpt-5-nano-2025-08-07'], '0.05', '0.005', '0.40'),
  ...price('openai', ['o1', 'o1-2024-12-17'], '15.00', '7.50', '60.00'),
  ...price('openai', ['o3', 'o3-2025-04-16'], '2.00', '0.50', '8.00'),
  ...price('openai', ['o3-mini', 'o3-mini-2025-01-31'], '1.10', '0.55', '4.40'),
  ...price('openai', ['o4-mini', 'o4-mini-2025-04-16'], '1.10', '0.275', '4.40'),
  // Anthropic (docs.anthropic.com pricing; cache read = 0.1 × input)
  ...price('anthropic', ['claude-3-haiku-20240307'], '0.25', '0.03', '1.25'),
  ...price('anthropic', ['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest'], '0.80', '0.08', '4.00'),
  ...price(
    'anthropic',
    ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-latest'],
    '3.00',
    '0.30',
    '15.00',
  ),
  ...price('anthropic', ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet-latest'], '3.00', '0.30', '15.00'),
  ...price('anthropic', ['claude-sonnet-4-20250514', 'claude-sonnet-4-0'], '3.00', '0.30', '15.00'),
  ...price('anthropic', ['claude-opus-4-20250514', 'claude-opus-4-0'], '15.00', '1.50', '75.00'),
  ...price('anthropic', ['claude-opus-4-1-20250805', 'claude-opus-4-1'], '15.00', '1.50', '75.00'),
  // Google Gemini API (ai.google.dev/gemini-api/docs/pricing, paid tier, text)
  ...price('gemini', ['gemini-2.0-flash', 'gemini-2.0-flash-001'], '0.10', '0.025', '0.40'),
  ...price('gemini', ['gemini-2.5-flash'], '0.30', '0.075', '2.50'),
  ...price('gemini', ['gemini-2.5-flash-lite'], '0.10', '0.025', '0.40'),
  ...price('gemini', ['gemini-2.5-pro'], '1.25', '0.31', '10.00'),
];
