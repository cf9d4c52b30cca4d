/**
 * The scope each message is settled in (its retries, handler and dead-lettering), for an
 * application to run that work under a context of its own, such as the correlation id its logger
 * reads. Provide one from a global module; without one, messages are settled as they are.
 */
export abstract class InboxMessageScope {
  /** Runs `settle` for the message whose Kafka headers are `headers`, and returns its result. */
  abstract run<T>(headers: Readonly<Record<string, string>>, settle: () => Promise<T>): Promise<T>;
}
