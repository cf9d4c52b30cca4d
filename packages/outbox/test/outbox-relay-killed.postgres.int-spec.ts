import { relayKilledMidBatchCases } from './fixtures/killed-relay';

relayKilledMidBatchCases('postgres');
