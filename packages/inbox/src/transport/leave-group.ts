import { Consumer } from 'kafkajs';

/**
 * Stops a consumer: it ends its batch, commits, and leaves its group; resolves true once it
 * has, false after `timeoutMs`. kafkajs sends the LeaveGroup only once a join in flight is
 * over, and a join waits until every member has rejoined, a dead one until its session times
 * out (30 s by default): a shutdown must not wait that long. Given up on, the member is dropped
 * by the group when its session times out, and what it had not committed is delivered again
 * (and absorbed by the inbox).
 */
export async function leaveGroupWithin(consumer: Consumer, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const left = consumer.disconnect().then(() => true);
  const inTime = await Promise.race([left, late]).finally(() => clearTimeout(timer));
  // Given up on, its end no longer matters to anyone: it must not become an unhandled rejection.
  if (!inTime) left.catch(() => undefined);
  return inTime;
}
