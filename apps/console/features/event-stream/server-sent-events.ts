/** One Server-Sent Event: its `event:` name (default `message`) and its `data:` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser: feed it the text as it arrives, in chunks of any size;
 * it calls `onEvent` once per complete event (a block ended by a blank line). Comments (`:`) and
 * `id:`/`retry:` fields are ignored (the build log is replayed from the start, never resumed).
 */
export function createEventStreamParser(onEvent: (event: ServerSentEvent) => void): (chunk: string) => void {
  let buffer = '';
  // A chunk may end between the CR and the LF of one line break: that CR waits for the next chunk.
  let heldCarriageReturn = '';
  return (chunk) => {
    let text = heldCarriageReturn + chunk;
    heldCarriageReturn = text.endsWith('\r') ? '\r' : '';
    if (heldCarriageReturn !== '') text = text.slice(0, -1);
    buffer += text.replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) onEvent({ event: name, data: data.join('\n') });
      end = buffer.indexOf('\n\n');
    }
  };
}
