// Reading a text/event-stream as it arrives: the sandbox's build log, the transcript's live turn and
// a QA run's progress.
export { createEventStreamParser, type ServerSentEvent } from './server-sent-events';
export {
  followRelayedEvents,
  type RelayedEventHandlers,
  type RelayedStreamEnd,
} from './follow-relayed-events';
export { checkedEventStream, parseEventData, type EventDataSchema } from './checked-event-stream';
