/**
 * The build's step that makes the empty database a new embedded database starts from (see
 * empty-database.ts). Does nothing when the build output already has the one of the installed PGlite.
 */
import { ensureEmptyDatabase } from './empty-database.js';

await ensureEmptyDatabase();
