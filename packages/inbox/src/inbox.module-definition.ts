import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { DataSourceRef } from '@outbox-inbox/database';
import type { OperatorRoutes } from '@outbox-inbox/messaging';
import { InboxModuleOptions } from './inbox.options';

/**
 * What the module is built with, beside the options: known when the module is declared (also
 * with `forRootAsync`), because they decide its providers and routes.
 */
export interface InboxModuleExtras {
  /** The DataSource holding the inbox tables: instance, TypeORM name or token. Default: the default one. */
  dataSource?: DataSourceRef;
  /**
   * The /inbox operator endpoints. `false` mounts none; `{ guards }` puts guards in front of
   * them. In this project's services the operator token guard (ObservabilityModule) covers them.
   */
  http?: OperatorRoutes;
}

export const {
  ConfigurableModuleClass: InboxConfigurableModule,
  MODULE_OPTIONS_TOKEN: INBOX_MODULE_OPTIONS,
  OPTIONS_TYPE: INBOX_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: INBOX_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<InboxModuleOptions>({ moduleName: 'Inbox' })
  .setClassMethodName('forRoot')
  .setExtras<InboxModuleExtras>({ http: true }, (definition) => definition)
  .build();
