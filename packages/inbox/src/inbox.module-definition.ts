import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { DataSourceRef } from '@outbox-inbox/database';
import { InboxModuleOptions } from './inbox.options';

/**
 * What the module is built with, beside the options: known when the module is declared (also
 * with `forRootAsync`), because they decide its providers.
 */
export interface InboxModuleExtras {
  /** The DataSource holding the inbox tables: instance, TypeORM name or token. Default: the default one. */
  dataSource?: DataSourceRef;
}

export const {
  ConfigurableModuleClass: InboxConfigurableModule,
  MODULE_OPTIONS_TOKEN: INBOX_MODULE_OPTIONS,
  OPTIONS_TYPE: INBOX_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: INBOX_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<InboxModuleOptions>({ moduleName: 'Inbox' })
  .setClassMethodName('forRoot')
  .setExtras<InboxModuleExtras>({}, (definition) => definition)
  .build();
