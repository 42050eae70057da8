import { fileURLToPath } from 'node:url';
import type { AvatarKey, SceneKind } from './demo/patients-and-places.js';

/**
 * The folder of the demo media files. The demo `media` rows hold paths relative to it, and
 * the server serves them from here. The build copies `src/seed/assets` next to the compiled
 * module, so the same relative URL works from `src` and from `dist`.
 */
export const SEED_ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

/** One short video that every demo tutorial plays. */
export const TUTORIAL_VIDEO = { path: 'tutorial.webm', contentType: 'video/webm' } as const;

/** The image of the 'new cases' popup notification. */
export const ANNOUNCEMENT_IMAGE = { path: 'announcement.png', contentType: 'image/png' } as const;

export function avatarPicturePath(key: AvatarKey): string {
  return `avatars/${key}.png`;
}

export function scenePicturePath(kind: SceneKind): string {
  return `scenes/${kind}.png`;
}
