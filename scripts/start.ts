/**
 * `npm start` / `npm run dev`: the app together with the embedded backend. The embedded
 * backend is not part of this version yet, so this says so instead of pretending.
 */
console.error(
  'The embedded local backend is not available in this version yet.\n' +
    'Run `npm run build` to build the app, and see README.md for connecting it to a hosted Supabase project.',
);
process.exit(1);
