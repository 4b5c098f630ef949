// Reading a text/event-stream as it arrives: the sandbox's build log and the transcript's live turn.
export { createEventStreamParser, type ServerSentEvent } from './server-sent-events';
export { checkedEventStream, parseEventData, type EventDataSchema } from './checked-event-stream';
