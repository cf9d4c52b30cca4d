import { LoggerService } from '@nestjs/common';
import { NotificationListener, sqlDialectOf } from '@outbox-inbox/database';
import { DataSource } from 'typeorm';
import { OutboxCommitNotifier } from '../writer/outbox-commit-notifier';

/** The channel writers notify and relays listen on, unless the options name another. */
export const DEFAULT_OUTBOX_CHANNEL = 'outbox_committed';

/** The `listenNotify` option: off (default), on, or on with a channel of its own. */
export type ListenNotifySetting = boolean | { channel?: string };

/** The channel `setting` names, or undefined when it is off. */
export function listenNotifyChannel(setting: ListenNotifySetting | undefined): string | undefined {
  if (!setting) return undefined;
  return (setting === true ? undefined : setting.channel) ?? DEFAULT_OUTBOX_CHANNEL;
}

/**
 * What wakes a relay on commit: `inProcess` (this process's commits), and with `setting` on,
 * every process's through LISTEN/NOTIFY.
 */
export function commitWakeUp(
  dataSource: DataSource,
  setting: ListenNotifySetting | undefined,
  inProcess?: OutboxCommitNotifier,
  logger?: LoggerService,
): OutboxCommitNotifier | ListenNotifyWakeUp | undefined {
  const channel = listenNotifyChannel(setting);
  if (channel === undefined) return inProcess;
  return new ListenNotifyWakeUp(dataSource, channel, inProcess, logger);
}

/**
 * Wakes a relay when a transaction that wrote outbox rows commits in any process, on
 * PostgreSQL: the writers' OutboxCommitNotifier sends a NOTIFY in each such transaction, and
 * this listens on the channel in a session of its own while a relay is subscribed (and after
 * every reconnect, in case a commit went unheard). Commits in this process also come through
 * `inProcess`, without the round trip.
 *
 * Off by default (OutboxModule `listenNotify`): PostgreSQL takes a lock on the notification
 * queue when a notifying transaction commits, which serializes those commits, and a
 * transaction-mode pooler (PgBouncer) does not keep a listening session. Without it, relays in
 * other processes find new rows at their next poll (`pollIntervalMs`).
 */
export class ListenNotifyWakeUp {
  private readonly listeners = new Set<() => void>();
  private session?: NotificationListener;

  constructor(
    private readonly dataSource: DataSource,
    private readonly channel: string = DEFAULT_OUTBOX_CHANNEL,
    private readonly inProcess?: OutboxCommitNotifier,
    private readonly logger?: LoggerService,
  ) {
    if (!sqlDialectOf(dataSource).notifications) {
      throw new Error(
        `listenNotify needs PostgreSQL; this DataSource is "${dataSource.options.type}"`,
      );
    }
  }

  /**
   * Registers `listener`; the first one opens the listening session, and the function that
   * removes the last one closes it (resolving once it is closed).
   */
  onCommit(listener: () => void): () => Promise<void> {
    const wake = () => listener();
    this.listeners.add(wake);
    const offInProcess = this.inProcess?.onCommit(wake);
    if (!this.session) {
      this.session = sqlDialectOf(this.dataSource).notifications!.listen(
        this.dataSource,
        this.channel,
        () => this.listeners.forEach((l) => l()),
        { logger: this.logger },
      );
      void this.session.start();
    }
    return async () => {
      offInProcess?.();
      this.listeners.delete(wake);
      if (this.listeners.size > 0 || !this.session) return;
      const session = this.session;
      this.session = undefined;
      await session.stop();
    };
  }
}
