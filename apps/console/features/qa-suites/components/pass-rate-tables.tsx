import type { PassRateJson } from '@agentdesk/api-contract';
import { CallCostText } from '../../cost';
import { formatLatency, formatPassRate } from '../format-rate';

/** Pass rate, cost and latency (p50/p95) per target. */
export function TargetRates({ rates }: { rates: readonly PassRateJson[] }) {
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Pass rate, cost and latency per target</caption>
        <thead>
          <tr>
            <th scope="col">Target</th>
            <PassRateHeaders />
            <th scope="col" className="number">
              Cost
            </th>
            <th scope="col" className="number">
              Latency p50
            </th>
            <th scope="col" className="number">
              Latency p95
            </th>
          </tr>
        </thead>
        <tbody>
          {rates.map((rate) => (
            <tr key={rate.key}>
              <th scope="row" className="mono">
                {rate.key}
              </th>
              <PassRateCells rate={rate} />
              <td className="number">
                <CallCostText costMicros={rate.costMicros} />
              </td>
              <td className="number">{formatLatency(rate.latencyP50Ms)}</td>
              <td className="number">{formatLatency(rate.latencyP95Ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Pass rate per assertion kind (`schema` first: it is checked on every cell). */
export function AssertionKindRates({ rates }: { rates: readonly PassRateJson[] }) {
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Pass rate per assertion kind</caption>
        <thead>
          <tr>
            <th scope="col">Assertion kind</th>
            <PassRateHeaders />
          </tr>
        </thead>
        <tbody>
          {rates.map((rate) => (
            <tr key={rate.key}>
              <th scope="row">{rate.key}</th>
              <PassRateCells rate={rate} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The columns both tables share, after the row's key: the pass rate and what it is made of. */
function PassRateHeaders() {
  return (
    <>
      <th scope="col" className="number">
        Pass rate
      </th>
      <th scope="col" className="number">
        Passed / judged
      </th>
    </>
  );
}

function PassRateCells({ rate }: { rate: PassRateJson }) {
  return (
    <>
      <td className="number">{formatPassRate(rate.rate)}</td>
      <td className="number">
        {rate.passed} / {rate.judged}
      </td>
    </>
  );
}
