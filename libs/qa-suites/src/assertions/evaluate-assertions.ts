import type { AssertionOutcomeJson, SuiteAssertion } from '@agentdesk/api-contract';
import { assertionLabel, SCHEMA_ASSERTION_LABEL } from './assertion-label';
import { answerIsNotJson, type CellOutput } from './cell-output';
import { judgeAssertion, type Judgement } from './judge-assertion';

/**
 * Runs a cell's JavaScript checks (in the sandbox, never in the calling process) against the
 * parsed output: one result per check, in order. `passed: null` when a check could not be run.
 */
export type JavaScriptAssertionRunner = (
  output: unknown,
  checks: readonly { code: string }[],
) => Promise<{ passed: boolean | null; message: string | null; durationMs: number | null }[]>;

const NO_OUTPUT: Judgement = { passed: null, message: 'no output' };
const SHOWN_VALIDATION_ERRORS = 3;

function judgeSchema(output: CellOutput): Judgement {
  if (output.validation === null) return { passed: null, message: 'the answer was not validated' };
  if (output.validation.valid) return { passed: true, message: null };
  const errors = output.validation.errors;
  const shown = errors
    .slice(0, SHOWN_VALIDATION_ERRORS)
    .map((error) => (error.path === '' ? error.message : `${error.path}: ${error.message}`));
  const more =
    errors.length > SHOWN_VALIDATION_ERRORS ? ` (and ${errors.length - SHOWN_VALIDATION_ERRORS} more)` : '';
  return {
    passed: false,
    message: shown.length > 0 ? `${shown.join('; ')}${more}` : 'not valid against the schema',
  };
}

async function judgeJavaScript(
  checks: readonly { code: string }[],
  output: CellOutput,
  runJavaScript: JavaScriptAssertionRunner,
): Promise<(Judgement & { durationMs: number | null })[]> {
  if (checks.length === 0) return [];
  if (answerIsNotJson(output))
    return checks.map(() => ({ passed: false, message: 'the answer is not JSON', durationMs: null }));
  try {
    const results = await runJavaScript(output.json, checks);
    return checks.map((_, index) => {
      const result = results[index];
      return result
        ? { passed: result.passed, message: result.message, durationMs: result.durationMs }
        : {
            passed: null,
            message: 'the JavaScript runner returned no result for this check',
            durationMs: null,
          };
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return checks.map(() => ({
      passed: null,
      message: `the JavaScript runner failed: ${reason}`,
      durationMs: null,
    }));
  }
}

/**
 * Judges a cell: the schema outcome first (always checked), then each assertion in order. All
 * JavaScript checks of the cell go to one runner call (one sandbox exec). When the model call
 * failed there is nothing to judge: every outcome is `passed: null`, "no output".
 */
export async function evaluateAssertions(
  output: CellOutput,
  assertions: readonly SuiteAssertion[],
  runJavaScript: JavaScriptAssertionRunner,
): Promise<AssertionOutcomeJson[]> {
  const schemaOutcome = (judgement: Judgement): AssertionOutcomeJson => ({
    kind: 'schema',
    label: SCHEMA_ASSERTION_LABEL,
    ...judgement,
  });
  if (output.status === 'error') {
    return [
      schemaOutcome(NO_OUTPUT),
      ...assertions.map((assertion) => ({
        kind: assertion.kind,
        label: assertionLabel(assertion),
        ...NO_OUTPUT,
      })),
    ];
  }
  const answerIsJson = !answerIsNotJson(output);
  const javascriptChecks = assertions.flatMap((assertion) =>
    assertion.kind === 'javascript' ? [{ code: assertion.code }] : [],
  );
  const javascriptResults = await judgeJavaScript(javascriptChecks, output, runJavaScript);
  let nextJavaScript = 0;
  const outcomes = assertions.map((assertion): AssertionOutcomeJson => {
    const label = assertionLabel(assertion);
    if (assertion.kind === 'javascript') {
      const result = javascriptResults[nextJavaScript];
      nextJavaScript += 1;
      return {
        kind: 'javascript',
        label,
        passed: result?.passed ?? null,
        message: result?.message ?? null,
        durationMs: result?.durationMs ?? null,
      };
    }
    return { kind: assertion.kind, label, ...judgeAssertion(assertion, output, answerIsJson) };
  });
  return [schemaOutcome(judgeSchema(output)), ...outcomes];
}
