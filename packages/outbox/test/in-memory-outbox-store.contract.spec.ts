import { InMemoryOutboxStore, runOutboxStoreContract } from '../src/testing';

runOutboxStoreContract('in-memory twin', { open: async () => new InMemoryOutboxStore() });
