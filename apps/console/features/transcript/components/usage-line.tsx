import type { TokenUsageJson } from '@agentdesk/api-contract';
import { formatTokens } from '../format';

export function UsageLine({ usage }: { usage: TokenUsageJson }) {
  return (
    <span className="usage">
      {formatTokens(usage.input)} in · {formatTokens(usage.output)} out
      {usage.thinking > 0 && <> · {formatTokens(usage.thinking)} thinking</>}
      {usage.cached > 0 && <> · {formatTokens(usage.cached)} cached</>}
    </span>
  );
}
