import type { Socket } from 'node:net';

/**
 * A broker restart as a producer sees it: the answer to a request the broker
 * stored is lost, then connections are refused for a while. Each client's
 * test hands its sockets over its own way (kafkajs's socket factory,
 * @platformatic/kafka's diagnostics channels); this decides which answer is
 * lost and when the refusing ends.
 */
export class BrokerOutage {
  private armed = false;
  private refusingNow = false;

  /** Whether a connection made now is to be refused, as a restarting broker's port refuses. */
  get refusing(): boolean {
    return this.refusingNow;
  }

  /** Whether an answer is still to be lost. */
  get cutting(): boolean {
    return this.armed;
  }

  /** Loses the next answer this socket receives while one is to be lost: the client hears the end of the stream, then nothing. */
  watch(socket: Socket): void {
    const emit = socket.emit.bind(socket);
    socket.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event !== 'data' || !this.armed) return emit(event, ...args);
      this.armed = false;
      this.refusingNow = true;
      emit('end');
      socket.destroy();
      return true;
    };
  }

  /** The next answer is lost, and connections are refused for `ms` after it. */
  cutNextAnswer(ms: number): Promise<void> {
    this.armed = true;
    return new Promise((resolve) => {
      const waiting = setInterval(() => {
        if (!this.refusingNow) return;
        clearInterval(waiting);
        setTimeout(() => {
          this.refusingNow = false;
          resolve();
        }, ms);
      }, 10);
    });
  }
}
