import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * An `onRequest` hook from a synchronous check that throws to refuse the request. Fastify waits
 * for an async hook's promise (one more promise and microtask per hook, on every request); a
 * callback hook calls `done` at once. The thrown error reaches the same error handler.
 */
export function synchronousHook(
  check: (request: FastifyRequest, reply: FastifyReply) => void,
): onRequestHookHandler {
  return function runCheck(request, reply, done) {
    try {
      check(request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}
