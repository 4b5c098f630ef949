import { callConsole } from '../../console-call';

/**
 * A read through one of the console's own route handlers (the key stays in the cookie, server
 * side). The handler checked the API's answer against the contract, so its type is taken as is; a
 * refusal throws with the message to show.
 */
export async function fetchFromConsole<Data>(path: string): Promise<Data> {
  const answer = await callConsole<Data>(path);
  if (!answer.ok) throw new Error(answer.message);
  return answer.data;
}
