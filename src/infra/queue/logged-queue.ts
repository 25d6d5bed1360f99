import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { throttledWarning } from '../logging/throttled-warning.js';

const warn = throttledWarning(new Logger('Queues'));

/**
 * BullMQ's Queue with an error listener from its first moment. A queue connects as soon as it is
 * built, long before any Nest lifecycle hook could add a listener, and an `error` nobody listens
 * to is printed raw to stderr (one stack per failed reconnect while Redis is away).
 */
export class LoggedQueue extends Queue {
  constructor(...args: ConstructorParameters<typeof Queue>) {
    super(...args);
    this.on('error', (error: Error) => warn(`queue ${this.name}`, error));
  }
}
