/** The URL under which `mediaRoutes` serves a media row: same origin, so the browser plays it directly. */
export function mediaUrl(mediaId: string): string {
  return `/media/${encodeURIComponent(mediaId)}`;
}
