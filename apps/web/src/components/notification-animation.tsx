import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';

/** Spec section 9: a popup animation plays up to 10 seconds at speed 2. */
export const ANIMATION_MAX_MS = 10_000;
export const ANIMATION_SPEED = 2;

/** The celebratory confetti animation (spec section 9): 30 fps, 300 frames, 2000 by 2000. */
export const CONFETTI = {
  name: 'confetti',
  fps: 30,
  frames: 300,
  size: 2000,
  colors: ['blue', 'green', 'yellow', 'red'],
  pieces: 160,
} as const;

/** An animation given as a URL (a video or animated resource) rather than by name. */
export function isAnimationUrl(animation: string): boolean {
  return /^(https?:\/\/|\/)/i.test(animation.trim());
}

type Piece = { x: number; y: number; vx: number; vy: number; size: number; color: string };

function Confetti() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvasRef.current?.getContext('2d');
    if (!context) return undefined;
    const { size, colors, pieces: count, frames, fps } = CONFETTI;
    const pieces: Piece[] = Array.from({ length: count }, (_, index) => ({
      x: Math.random() * size,
      y: -Math.random() * size,
      vx: (Math.random() - 0.5) * 8,
      vy: 10 + Math.random() * 14,
      size: 14 + Math.random() * 18,
      color: colors[index % colors.length] ?? 'red',
    }));
    let frame = 0;
    const id = window.setInterval(
      () => {
        frame += 1;
        context.clearRect(0, 0, size, size);
        for (const piece of pieces) {
          piece.x += piece.vx;
          piece.y += piece.vy;
          context.fillStyle = piece.color;
          context.fillRect(piece.x, piece.y, piece.size, piece.size * 0.6);
        }
        if (frame >= frames) window.clearInterval(id);
      },
      1000 / (fps * ANIMATION_SPEED),
    );
    return () => window.clearInterval(id);
  }, []);
  return (
    <Box
      component="canvas"
      ref={canvasRef}
      width={CONFETTI.size}
      height={CONFETTI.size}
      aria-hidden="true"
      sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none' }}
    />
  );
}

function AnimationVideo({ src }: { src: string }) {
  const setSpeed = (video: HTMLVideoElement | null) => {
    if (!video) return;
    video.defaultPlaybackRate = ANIMATION_SPEED;
    video.playbackRate = ANIMATION_SPEED;
  };
  return (
    <Box
      component="video"
      ref={setSpeed}
      src={src}
      autoPlay
      muted
      playsInline
      aria-hidden="true"
      onLoadedMetadata={(event) => setSpeed(event.currentTarget)}
      sx={{ display: 'block', maxWidth: '100%', maxHeight: 240, mx: 'auto', mb: 2 }}
    />
  );
}

/**
 * A slide's animation: a URL plays as a muted video, a name picks a built-in animation (only
 * confetti exists; other names show nothing). Either runs at speed 2 and stops after 10 seconds.
 */
export function NotificationAnimation({ animation }: { animation: string }) {
  const [isPlaying, setIsPlaying] = useState(true);
  useEffect(() => {
    const id = window.setTimeout(() => setIsPlaying(false), ANIMATION_MAX_MS);
    return () => window.clearTimeout(id);
  }, []);
  if (!isPlaying) return null;
  if (isAnimationUrl(animation)) return <AnimationVideo src={animation.trim()} />;
  if (animation.trim().toLowerCase() === CONFETTI.name) return <Confetti />;
  return null;
}
