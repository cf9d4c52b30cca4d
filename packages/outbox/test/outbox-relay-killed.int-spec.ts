import { relayKilledMidBatchCases } from './fixtures/killed-relay';

relayKilledMidBatchCases('mysql');
