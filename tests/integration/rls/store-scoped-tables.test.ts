import { describeStoreScopedTables } from './store-scoped-suite.ts';
import { storeScopedTables } from './store-scoped-tables.ts';

describeStoreScopedTables(storeScopedTables);
