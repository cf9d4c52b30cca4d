import { InMemoryInboxDatabase, runInboxStoreContract } from '../src/testing';

runInboxStoreContract('in-memory twin', { open: async () => new InMemoryInboxDatabase() });
