// Talking to workoutd's HTTP face: Connect unary calls with JSON bodies, and Watch as a Connect
// server stream read with fetch and a stream reader.
//
// The session is a bearer token kept in sessionStorage: it lives as long as this tab (a reload
// stays signed in, a new tab signs in again), and it is sent only by this code, in an
// Authorization header. No cookie carries it, so no other site can make the browser call the
// server on the member's behalf (no CSRF surface); the strict Content-Security-Policy the
// server sends forbids inline and injected script, which is what could otherwise read it.

const TOKEN = 'workout.token';

/** A failed call: Connect's code ("invalid_argument"), its message, the HTTP status. */
export class CallError extends Error {
  constructor(code, message, httpStatus, details) {
    super(message);
    this.code = code;
    this.httpStatus = httpStatus;
    this.details = details || [];
  }
}

export const session = {
  get token() { return sessionStorage.getItem(TOKEN); },
  set token(value) {
    if (value) sessionStorage.setItem(TOKEN, value); else sessionStorage.removeItem(TOKEN);
  },
};

/**
 * Set by the app: `signedOut` when the server no longer knows the session; `reached` after each
 * call, with whether the server answered at all (a network failure is `false`).
 */
export const hooks = { signedOut: () => {}, reached: () => {} };

function path(method) {
  const [service, name] = method.split('.');
  return `/workout.v1.${service}Service/${name}`;
}

function headers(contentType, idempotencyKey) {
  const result = { 'Content-Type': contentType };
  if (session.token) result.Authorization = `Bearer ${session.token}`;
  if (idempotencyKey) result['Idempotency-Key'] = idempotencyKey;
  return result;
}

/**
 * Calls a unary method ("Queries.MealsOfDay") with a JSON request; answers its JSON response.
 * A write that creates a record passes `{idempotent: true}`: a retry of the same call then
 * carries the same Idempotency-Key, so the server stores it once.
 */
export async function call(method, request = {}, options = {}) {
  const key = options.idempotent ? crypto.randomUUID() : undefined;
  let lastError;
  for (let attempt = 0; attempt < (key ? 3 : 1); attempt++) {
    let response;
    try {
      response = await fetch(path(method), { method: 'POST', headers: headers('application/json', key), body: JSON.stringify(request) });
      hooks.reached(true);
    } catch (error) {
      hooks.reached(false);
      lastError = new CallError('unavailable', 'The server cannot be reached. Check the connection and try again.', 0);
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
      continue;
    }
    const text = await response.text();
    let body = {};
    try { body = text ? JSON.parse(text) : {}; } catch { body = {}; }
    if (response.ok) return body;
    const error = new CallError(body.code || 'unknown', body.message || `HTTP ${response.status}`, response.status, body.details);
    if (error.code === 'unauthenticated' && method !== 'Auth.Login') {
      session.token = null;
      hooks.signedOut(error);
    }
    throw error;
  }
  throw lastError;
}

function envelope(json) {
  const bytes = new TextEncoder().encode(JSON.stringify(json));
  const frame = new Uint8Array(5 + bytes.length);
  new DataView(frame.buffer).setUint32(1, bytes.length);
  frame.set(bytes, 5);
  return frame;
}

/**
 * Follows Watch from `sinceRevision`, calling `onEvent` with each WatchEvent. When the stream
 * ends or fails it reconnects from the last revision seen, after a pause that doubles from one
 * second up to thirty (and starts over once events flow again). Answers a function that stops.
 */
export function watch(sinceRevision, onEvent, onState = () => {}) {
  let revision = sinceRevision || '0';
  let stopped = false;
  let controller;
  let pause = 1000;

  async function follow() {
    controller = new AbortController();
    const response = await fetch(path('Streams.Watch'), {
      method: 'POST', headers: headers('application/connect+json'),
      body: envelope(revision && revision !== '0' ? { sinceRevision: revision } : {}),
      signal: controller.signal,
    });
    if (!response.ok) throw new CallError('unavailable', `Watch answered HTTP ${response.status}`, response.status);
    onState('live');
    const reader = response.body.getReader();
    let buffer = new Uint8Array(0);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer);
      joined.set(value, buffer.length);
      buffer = joined;
      while (buffer.length >= 5) {
        const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(1);
        if (buffer.length < 5 + length) break;
        const flags = buffer[0];
        const message = JSON.parse(new TextDecoder().decode(buffer.subarray(5, 5 + length)) || '{}');
        buffer = buffer.slice(5 + length);
        if (flags & 0x02) {
          if (message.error) {
            const error = new CallError(message.error.code, message.error.message, 200);
            if (error.code === 'unauthenticated') { session.token = null; hooks.signedOut(error); stopped = true; }
            throw error;
          }
          return;
        }
        pause = 1000;
        if (message.revision) revision = message.revision;
        onEvent(message);
      }
    }
  }

  (async () => {
    while (!stopped) {
      try { await follow(); } catch (error) { if (stopped) break; }
      if (stopped) break;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30000);
    }
  })();

  return () => { stopped = true; controller?.abort(); };
}
