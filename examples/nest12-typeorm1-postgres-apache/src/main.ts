import { bootstrap } from './app.js';

await bootstrap(Number(process.env.PORT ?? 3000));
