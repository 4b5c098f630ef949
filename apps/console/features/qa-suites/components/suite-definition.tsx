import { suiteAssertionKinds, targetLabel, type SuiteDefinition } from '@agentdesk/api-contract';

/** The kinds a case asserts, `schema` first (always checked), each once. */
function assertionKindsOf(testCase: SuiteDefinition['cases'][number]): string[] {
  const kinds = new Set<string>(['schema', ...testCase.assertions.map((assertion) => assertion.kind)]);
  return suiteAssertionKinds.filter((kind) => kinds.has(kind));
}

/** A suite definition at a glance: its targets with their settings, and its cases with their assertion kinds. */
export function SuiteDefinitionSummary({ definition }: { definition: SuiteDefinition }) {
  return (
    <>
      <h3>Targets</h3>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Targets and their settings</caption>
          <thead>
            <tr>
              <th scope="col">Target</th>
              <th scope="col">Model</th>
              <th scope="col">Strict</th>
              <th scope="col" className="number">
                Temperature
              </th>
              <th scope="col" className="number">
                Max tokens
              </th>
            </tr>
          </thead>
          <tbody>
            {definition.targets.map((target) => (
              <tr key={targetLabel(target)}>
                <th scope="row" className="mono">
                  {targetLabel(target)}
                </th>
                <td className="mono">{target.model}</td>
                <td>{target.strict ? 'yes' : 'no'}</td>
                <td className="number">{target.temperature ?? 'default'}</td>
                <td className="number">{target.maxTokens ?? 'default'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>
        Cases{' '}
        <span className="muted">
          ({definition.cases.length}; each cell times out after {definition.timeoutMs / 1000} s)
        </span>
      </h3>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Cases and what they assert</caption>
          <thead>
            <tr>
              <th scope="col">Case</th>
              <th scope="col">Input</th>
              <th scope="col">Assertions</th>
            </tr>
          </thead>
          <tbody>
            {definition.cases.map((testCase) => (
              <tr key={testCase.id}>
                <th scope="row">
                  <span className="mono">{testCase.id}</span>
                  {testCase.description !== undefined && (
                    <span className="muted case-description">{testCase.description}</span>
                  )}
                </th>
                <td className="wrap-anywhere prompt-cell">
                  {testCase.prompt ?? `${testCase.messages?.length ?? 0} messages`}
                </td>
                <td>
                  <ul className="inline-list">
                    {assertionKindsOf(testCase).map((kind) => (
                      <li key={kind}>
                        <span className="badge">{kind}</span>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
