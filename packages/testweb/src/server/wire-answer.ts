import type { Socket } from 'node:net';
import type { WireAnswer } from '../model/web-model.js';
import type { WebState } from './web-state.js';

/**
 * Writes a wire answer on the request's socket, bypassing the HTTP response: the head at once, the
 * drip a chunk per interval, then the end of the connection. Stops when the client goes away.
 */
export function sendWire(state: WebState, socket: Socket, answer: WireAnswer): void {
  socket.write(answer.head);
  let offset = 0;
  const step = () => {
    if (socket.destroyed) return stop();
    if (offset >= answer.drip.length) {
      stop();
      socket.end();
      return;
    }
    socket.write(answer.drip.subarray(offset, offset + answer.chunkBytes));
    offset += answer.chunkBytes;
  };
  const timer = setInterval(step, answer.intervalMs);
  const stop = () => {
    clearInterval(timer);
    state.timers.delete(timer);
  };
  state.timers.add(timer);
  socket.once('close', stop);
  if (answer.drip.length === 0) step();
}
