/**
 * Whether an `Accept` header asks for `text/event-stream`: listed (any case, any spacing) with a
 * quality above zero — `q=0` means "not this" (RFC 9110 §12.4.2). Wildcards do not ask for it:
 * JSON stays the answer unless a client names the stream.
 */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(',').some((range) => {
    const [mediaType, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (mediaType !== 'text/event-stream') return false;
    const quality = parameters.find((parameter) => /^q\s*=/.test(parameter));
    return quality === undefined || Number(quality.slice(quality.indexOf('=') + 1).trim()) > 0;
  });
}
