/**
 * Other connections' commits to a SQLite file in WAL mode, seen by reading the WAL-index header
 * in its `-shm` file: one `pread` of 96 bytes, instead of `PRAGMA data_version` (a statement
 * that opens and closes a read transaction, with two `fcntl` lock calls: about twice the CPU).
 *
 * Why it sees exactly what `PRAGMA data_version` sees. In WAL mode SQLite itself decides that
 * another connection changed the database by this very test: `walIndexTryHdr` (wal.c) compares
 * the 48-byte WalIndexHdr at the start of the wal-index with the copy it saw last, and a
 * difference is what moves `data_version` on. A writer rewrites the header at every commit
 * (its frame count, checksums and change counter move; a WAL restart changes its salts too), and
 * does so before its COMMIT returns, so before any client can have been told of the write; the
 * `-shm` file is the memory SQLite maps for the wal-index, and a `pread` of it reads the same
 * pages of the page cache. Two copies of the header follow each other; the writer writes the
 * second, then the first. A read that meets a writer halfway may see them differ: that is taken
 * as a change (a kept answer dropped for nothing, never one kept too long).
 *
 * The file is opened once and closed only after SQLite has closed its connection: closing any
 * descriptor of a file drops every POSIX lock the process holds on it, SQLite's own on the
 * `-shm` included (its shared lock that tells other processes the wal-index is in use).
 * Only used when the connection is in WAL mode with normal locking: otherwise there is no
 * `-shm` of a live wal-index to read, and the caller keeps `PRAGMA data_version`.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Both copies of the WalIndexHdr (48 bytes each) at the start of the wal-index. */
const HEADER_BYTES = 96;

export interface WalIndexChanges {
  /** A number that moves whenever the header moved since the last read; equal means unchanged. */
  read(): number;
  /** After SQLite's connection is closed, never before (see above). */
  close(): void;
}

/** Reads the `-shm` of `databaseFile`, or undefined when it cannot be opened. */
export function walIndexChanges(databaseFile: string): WalIndexChanges | undefined {
  let fd: number;
  try {
    fd = openSync(`${databaseFile}-shm`, 'r');
  } catch {
    return undefined;
  }
  const seen = Buffer.alloc(HEADER_BYTES);
  const now = Buffer.alloc(HEADER_BYTES);
  let changes = 0;
  return {
    read() {
      const length = readSync(fd, now, 0, HEADER_BYTES, 0);
      // A short read (a wal-index not yet sized) counts as a change every time: nothing is kept.
      if (length !== HEADER_BYTES || !now.equals(seen)) {
        now.copy(seen);
        changes += 1;
      }
      return changes;
    },
    close: () => closeSync(fd),
  };
}
