import { currentSignIn } from '../../auth';
import { ApiRequestError, ApiUnavailableError } from '../../api-client';
import { transcriptJsonExport } from '../export/transcript-json';
import { transcriptMarkdown } from '../export/transcript-markdown';
import { checkMessagesOf } from './check-message';
import { readMessagesPage, readToolResultPage, readWholeTranscript } from './read-session';

/** What the browser gets when a read fails: the API's code and message, or why the API was not reached. */
function failure(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: { 'cache-control': 'no-store' } });
}

function fromError(error: unknown): Response {
  if (error instanceof ApiRequestError) return failure(error.status, error.code, error.message);
  if (error instanceof ApiUnavailableError) return failure(502, 'API_UNAVAILABLE', error.message);
  throw error;
}

const notSignedIn = () => failure(401, 'UNAUTHENTICATED', 'Sign in to the console again');

type Params<Names extends string> = { params: Promise<Record<Names, string>> };

/**
 * `GET /sessions/:id/messages?cursor=`: the next keyset page of the transcript, for the virtualized
 * list — checked against the contract and each message's parts read here, so the browser only renders.
 */
export async function handleMessagesPage(request: Request, { params }: Params<'id'>): Promise<Response> {
  const signedIn = await currentSignIn();
  if (signedIn === null) return notSignedIn();
  const { id } = await params;
  const cursor = new URL(request.url).searchParams.get('cursor');
  try {
    const page = await readMessagesPage(signedIn.credential, id, cursor === '' ? null : cursor);
    return Response.json(checkMessagesOf(page), { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return fromError(error);
  }
}

/** `GET /sessions/:id/tool-results/:toolCallId?offset=`: one page of a tool call's full stored output. */
export async function handleToolResultPage(
  request: Request,
  { params }: Params<'id' | 'toolCallId'>,
): Promise<Response> {
  const signedIn = await currentSignIn();
  if (signedIn === null) return notSignedIn();
  const { id, toolCallId } = await params;
  const offsetText = new URL(request.url).searchParams.get('offset') ?? '0';
  if (!/^\d{1,10}$/.test(offsetText))
    return failure(400, 'VALIDATION_FAILED', 'offset: must be a whole number of characters (0 or more)');
  try {
    const page = await readToolResultPage(signedIn.credential, id, toolCallId, Number(offsetText));
    return Response.json(page, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return fromError(error);
  }
}

const exportFormats = {
  json: { extension: 'json', contentType: 'application/json; charset=utf-8' },
  markdown: { extension: 'md', contentType: 'text/markdown; charset=utf-8' },
} as const;

/** `GET /sessions/:id/export?format=json|markdown`: the whole transcript as a download. */
export async function handleTranscriptExport(request: Request, { params }: Params<'id'>): Promise<Response> {
  const signedIn = await currentSignIn();
  if (signedIn === null) return notSignedIn();
  const { id } = await params;
  const format = new URL(request.url).searchParams.get('format') ?? 'json';
  if (format !== 'json' && format !== 'markdown')
    return failure(400, 'VALIDATION_FAILED', 'format: must be json or markdown');
  let transcript;
  try {
    transcript = await readWholeTranscript(signedIn.credential, id);
  } catch (error) {
    return fromError(error);
  }
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
}
