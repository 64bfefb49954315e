// `npm run admin -- <command>`: the operator's commands, on the server's own settings.
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.ts';
import { backupEmbedded, restoreEmbedded } from '../db/backup.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { AppError } from '../http/errors.ts';
import { importDiskFiles } from '../storage/import-disk-files.ts';
import { openFileStore } from '../storage/open-file-store.ts';
import { adminSignUp, checkNewPassword, createAdmin, setPassword } from './admin-accounts.service.ts';

const USAGE = `Usage:
  npm run admin -- create --email <email> [--username <name>] [--name <full name>]
                          [--phone <phone>] [--date-of-birth <yyyy-mm-dd>]
      Creates an admin account (real money). The username defaults to the part of the email
      before the @. An email or username already taken is refused.
  npm run admin -- password --email <email>
      Gives an existing account a new password and ends all its sessions.
  npm run admin -- backup --out <file>
      Writes the embedded database (DATA_DIR) to a new file (a gzipped tar). Stop the server
      first. With DATABASE_URL, use PostgreSQL's pg_dump instead (docs/operations.md).
  npm run admin -- restore --from <file> [--replace]
      Makes DATA_DIR's embedded database the one in the file. A database already there is
      only replaced with --replace, and kept beside it, renamed. Stop the server first.
  npm run admin -- import-files
      Copies the files uploaded under DATA_DIR/uploads (where every upload went before
      FILE_STORE) into the store FILE_STORE names. Run it once on each host that has them.

The password is asked for (not shown), or read from the first line of standard input when
piped. The database is DATABASE_URL's, else the embedded one in DATA_DIR (./data): a running
server holds the embedded one, so stop the server first.`;

/** Exit codes: 0 done, 1 refused (the message says why), 2 a mistake in the command itself. */
class UsageError extends Error {}

async function run(argv: string[]): Promise<string> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        username: { type: 'string' },
        name: { type: 'string' },
        phone: { type: 'string' },
        'date-of-birth': { type: 'string' },
        out: { type: 'string' },
        from: { type: 'string' },
        replace: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  if (values.help) return USAGE;
  const [command, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  if (command === 'backup' || command === 'restore') return backupCommand(command, values);
  if (command === 'import-files') {
    if (Object.keys(values).length > 0) throw new UsageError('import-files takes no options.');
    return importFiles(loadConfig());
  }
  if (command !== 'create' && command !== 'password') throw new UsageError(command ? `Unknown command: ${command}` : 'No command given.');
  if (values.out || values.from || values.replace) throw new UsageError(`${command} does not take --out, --from or --replace.`);
  if (!values.email) throw new UsageError('--email is required.');
  if (command === 'password' && (values.username || values.name || values.phone || values['date-of-birth'])) {
    throw new UsageError('password takes only --email.');
  }

  const config = loadConfig();
  const password = await readPassword();
  if (command === 'create') {
    const request = adminSignUp({
      email: values.email,
      password,
      username: values.username,
      fullName: values.name,
      phone: values.phone,
      dateOfBirth: values['date-of-birth'],
    });
    const { username } = await withDatabase(config, (db) => createAdmin(db, request));
    return `Admin account created: ${request.email.trim()} (username ${username}). Sign in with the account type "Real".`;
  }
  checkNewPassword(password);
  await withDatabase(config, (db) => setPassword(db, values.email!, password));
  return `New password set for ${values.email.trim()}; its sessions have ended.`;
}

async function backupCommand(
  command: 'backup' | 'restore',
  values: { out?: string; from?: string; replace?: boolean; email?: string },
): Promise<string> {
  if (values.email) throw new UsageError(`${command} does not take --email.`);
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new Error(`${command} is for the embedded database; with DATABASE_URL, use pg_dump and pg_restore (docs/operations.md).`);
  }
  if (command === 'backup') {
    if (!values.out) throw new UsageError('--out is required.');
    if (values.from || values.replace) throw new UsageError('backup takes only --out.');
    const { bytes } = await backupEmbedded(config.dataDir, values.out);
    return `Backup written: ${values.out} (${bytes} bytes) from ${config.dataDir}.`;
  }
  if (!values.from) throw new UsageError('--from is required.');
  if (values.out) throw new UsageError('restore takes --from and --replace.');
  const { users, keptAt } = await restoreEmbedded(config.dataDir, values.from, { replace: values.replace ?? false });
  const kept = keptAt ? ` The database it replaced is kept at ${keptAt}.` : '';
  return `Restored ${values.from} into ${config.dataDir} (${users} accounts).${kept}`;
}

async function importFiles(config: Config): Promise<string> {
  if (config.files.kind === 'disk') return 'FILE_STORE is disk: the files are already where the server reads them. Nothing copied.';
  const copied = await withDatabase(config, async (db) => {
    const store = await openFileStore(config, db);
    try {
      return await importDiskFiles(config.dataDir, store);
    } finally {
      store.close?.();
    }
  });
  const target = config.files.kind === 's3' ? `S3 bucket ${config.files.bucket}` : 'database';
  return `${copied} file${copied === 1 ? '' : 's'} copied from ${config.dataDir}/uploads into the ${target}.`;
}

async function withDatabase<T>(config: Config, work: (db: Database) => Promise<T>): Promise<T> {
  let db: Database;
  try {
    db = await openDatabase(config);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\nThe embedded database admits one process at a time: stop the Versus server, ` +
        'run this command, then start the server again.',
      { cause: error },
    );
  }
  try {
    // A database no server has started on yet gets its tables first (migrations run once).
    await migrate(db);
    return await work(db);
  } finally {
    await db.close();
  }
}

/** From the terminal without echo (asked twice), else the first line of standard input. */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) {
    const password = await askHidden('Password: ');
    if ((await askHidden('Repeat the password: ')) !== password) throw new AppError(400, 'invalid_input', 'The two passwords differ.');
    return password;
  }
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let muted = false;
    // The terminal echoes through readline's output: drop it once the question is shown.
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (!muted) process.stderr.write(chunk);
        done();
      },
    });
    const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
    rl.on('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new Error('Cancelled.'));
    });
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

run(process.argv.slice(2)).then(
  (message) => console.log(message),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    // Refusals (AppError: registration's message) and failures alike: a message, not a stack.
    const { message, code } = error as { message?: string; code?: string };
    const hint = error instanceof AppError && error.field === 'username' ? ' Choose one with --username.' : '';
    console.error(`${message || code || String(error)}${hint}`);
    process.exitCode = 1;
  },
);
