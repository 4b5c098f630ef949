import { NO_STORE, consoleRefusal, relayEventStream, relayFromApi } from '../../api-client';
import { routeCaller } from '../../auth';
import { transcriptJsonExport } from '../export/transcript-json';
import { transcriptMarkdown } from '../export/transcript-markdown';
import { checkMessagesOf } from './check-message';
import { checkedLiveEventStream } from './checked-live-events';
import { liveFeedPath, readMessagesPage, readToolResultPage, readWholeTranscript } from './read-session';

type Params<Names extends string> = { params: Promise<Record<Names, string>> };

/**
 * `GET /sessions/:id/messages?cursor=`: the next keyset page of the transcript, for the virtualized
 * list — checked against the contract and each message's parts read here, so the browser only renders.
 */
export async function handleMessagesPage(request: Request, { params }: Params<'id'>): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const { id } = await params;
  const cursor = new URL(request.url).searchParams.get('cursor');
  return relayFromApi(
    () => readMessagesPage(caller.signedIn.credential, id, cursor === '' ? null : cursor),
    (page) => Response.json(checkMessagesOf(page), { headers: NO_STORE }),
  );
}

/**
 * `GET /sessions/:id/live`: the session's running turns as they happen, the API's event stream
 * relayed event by event (each checked against the contract); the API audits the read.
 */
export async function handleLiveFeed(request: Request, { params }: Params<'id'>): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const { id } = await params;
  return relayEventStream(
    caller.signedIn.credential,
    liveFeedPath(id),
    request.signal,
    checkedLiveEventStream,
  );
}

/** `GET /sessions/:id/tool-results/:toolCallId?offset=`: one page of a tool call's full stored output. */
export async function handleToolResultPage(
  request: Request,
  { params }: Params<'id' | 'toolCallId'>,
): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const { id, toolCallId } = await params;
  const offsetText = new URL(request.url).searchParams.get('offset') ?? '0';
  if (!/^\d{1,10}$/.test(offsetText))
    return consoleRefusal('invalid-input', 'offset: must be a whole number of characters (0 or more)');
  return relayFromApi(
    () => readToolResultPage(caller.signedIn.credential, id, toolCallId, Number(offsetText)),
    (page) => Response.json(page, { headers: NO_STORE }),
  );
}

const exportFormats = {
  json: { extension: 'json', contentType: 'application/json; charset=utf-8' },
  markdown: { extension: 'md', contentType: 'text/markdown; charset=utf-8' },
} as const;

/** `GET /sessions/:id/export?format=json|markdown`: the whole transcript as a download. */
export async function handleTranscriptExport(request: Request, { params }: Params<'id'>): Promise<Response> {
  const caller = await routeCaller(request, 'read');
  if (!caller.ok) return caller.refusal;
  const { id } = await params;
  const format = new URL(request.url).searchParams.get('format') ?? 'json';
  if (format !== 'json' && format !== 'markdown')
    return consoleRefusal('invalid-input', 'format: must be json or markdown');
  return relayFromApi(
    () => readWholeTranscript(caller.signedIn.credential, id),
    (transcript) => {
      const body =
        format === 'json'
          ? JSON.stringify(transcriptJsonExport(transcript), null, 2)
          : transcriptMarkdown(transcript);
      const { extension, contentType } = exportFormats[format];
      // The session id is an API id (UUID layout) — safe in a header — but only its word characters are kept.
      const fileName = `session-${transcript.session.id.replace(/[^\w-]/g, '')}.${extension}`;
      return new Response(body, {
        headers: {
          'content-type': contentType,
          'content-disposition': `attachment; filename="${fileName}"`,
          'cache-control': 'no-store',
        },
      });
    },
  );
}
