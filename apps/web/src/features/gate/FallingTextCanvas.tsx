import { useEffect, useRef } from 'react';
import clsx from 'clsx';
import { RAIN, canvasSize, columnCount, createDrops, pickGlyph, stepDrops } from './falling-text.ts';
import { useDocumentVisible, usePrefersReducedMotion } from './use-media-query.ts';

interface Palette {
  trail: string;
  head: string;
}

// Canvas drawing cannot use Tailwind classes, so it reads the theme's variables; the literals are
// only a fallback for a stylesheet that has not loaded yet.
function readPalette(element: Element): Palette {
  const style = getComputedStyle(element);
  const read = (names: string[], fallback: string) => {
    for (const name of names) {
      const value = style.getPropertyValue(name).trim();
      if (value) return value;
    }
    return fallback;
  };
  return {
    trail: read(['--c-accent', '--color-accent'], '#8b5cf6'),
    head: read(['--c-accent-2', '--color-accent-2'], '#22d3ee'),
  };
}

/** The gate page's falling glyphs; never started under prefers-reduced-motion, paused while the tab is hidden. */
export function FallingTextCanvas({ className }: { className?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  const visible = useDocumentVisible();
  const animating = !reducedMotion && visible;

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;

    if (reducedMotion) {
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.clearRect(0, 0, canvas.width, canvas.height);
      return;
    }
    // Hidden tab: keep the last frame and run nothing until the tab returns.
    if (!animating) return;

    const fontSize = RAIN.fontSizePx;
    let cssWidth = 0;
    let cssHeight = 0;
    let rows = 0;
    let drops: number[] = [];
    let palette = readPalette(canvas);

    const resize = () => {
      const rect = canvas.getBoundingClientRect();
      const size = canvasSize(rect.width, rect.height, window.devicePixelRatio);
      if (size.width === canvas.width && size.height === canvas.height && drops.length > 0) return;
      canvas.width = size.width;
      canvas.height = size.height;
      context.setTransform(size.scale, 0, 0, size.scale, 0, 0);
      cssWidth = rect.width;
      cssHeight = rect.height;
      rows = Math.ceil(cssHeight / fontSize);
      const columns = columnCount(cssWidth, fontSize);
      // Keep the heads already falling; new columns start staggered above the top.
      drops = [...drops.slice(0, columns), ...createDrops(Math.max(0, columns - drops.length), rows, Math.random)];
    };

    const draw = () => {
      // Fade what is there towards transparent so the page's own backdrop shows through.
      context.globalCompositeOperation = 'destination-out';
      context.fillStyle = 'rgba(0, 0, 0, 0.14)';
      context.fillRect(0, 0, cssWidth, cssHeight);
      context.globalCompositeOperation = 'source-over';
      context.font = `600 ${fontSize}px ui-monospace, "SFMono-Regular", Menlo, monospace`;
      context.textBaseline = 'top';
      drops.forEach((row, column) => {
        if (row < 0) return;
        context.fillStyle = Math.random() < 0.12 ? palette.head : palette.trail;
        context.fillText(pickGlyph(Math.random), column * fontSize, row * fontSize);
      });
      drops = stepDrops(drops, rows, Math.random);
    };

    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);

    let frame = 0;
    let last = 0;
    let steps = 0;
    const loop = (now: number) => {
      frame = requestAnimationFrame(loop);
      if (now - last < RAIN.stepMs) return;
      last = now;
      // A theme switch changes the variables; pick it up within a few seconds.
      steps += 1;
      if (steps % 45 === 0) palette = readPalette(canvas);
      draw();
    };
    frame = requestAnimationFrame(loop);

    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [reducedMotion, animating]);

  return (
    <canvas
      ref={canvasRef}
      aria-hidden="true"
      data-testid="falling-text"
      data-animating={animating ? 'true' : 'false'}
      className={clsx('pointer-events-none absolute inset-0 h-full w-full', className)}
    />
  );
}
