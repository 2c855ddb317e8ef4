/**
 * `episodic migrate --store SPEC`: applies the Postgres session store's migrations
 * (they also run on first use; this lets an operator run them ahead of a deploy).
 */
import { type Command, ExitCode, parseCommandArgs, UsageError } from '../command.js';
import { openStore } from '../store-source.js';

const options = { store: { type: 'string' }, schema: { type: 'string' } } as const;

/** `episodic migrate`. */
export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'Create or upgrade the session store tables in PostgreSQL or PGlite',
  usage: 'episodic migrate --store postgres://...|pglite:DIR [--schema NAME]',
  help: `Applies the versioned migrations of the Postgres session store and replay cache
(tables episodic_sessions, episodic_messages, episodic_replay_cache) that the database
lacks, each once, and prints the versions applied. Safe to run again, and while
workers run: concurrent migrators wait for each other.

Options:
      --store SPEC   postgres://user:password@host:5432/database, or pglite:DIR
      --schema NAME  The schema to hold the tables (default public; created if missing)`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.store === undefined) throw new UsageError('missing --store');
    const started = Date.now();
    // Starting PGlite and applying the migrations take seconds: say what is happening, on stderr.
    io.stderr.write(`Opening ${values.store.startsWith('postgres') ? 'the PostgreSQL server' : values.store}...\n`);
    const opened = await openStore(values.store, values.schema);
    try {
      if (!opened.migrate) throw new UsageError(`--store ${values.store} is a file store directory: it has no tables to migrate`);
      const where = `${opened.label} (schema ${values.schema ?? 'public'})`;
      io.stderr.write(`Applying the migrations ${where} lacks...\n`);
      const applied = await opened.migrate();
      const took = `in ${((Date.now() - started) / 1000).toFixed(1)} s`;
      io.stdout.write(
        applied.length === 0 ? `${where} is up to date (${took}).\n` : `Applied migrations ${applied.join(', ')} to ${where} ${took}.\n`,
      );
    } finally {
      await opened.close();
    }
    return ExitCode.ok;
  },
};
