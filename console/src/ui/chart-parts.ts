import { useEffect, useState } from 'preact/hooks';

// Until the element is measured (and where ResizeObserver reports 0): a typical content width.
const DEFAULT_WIDTH = 640;

/** The element's width in CSS pixels, kept current as it resizes (the day charts draw to it). */
export function useWidth(ref: { current: HTMLElement | null }): number {
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return width;
}

/** `YYYY-MM-DD` as a short local date ("3 Dec"), the day charts' axis label. */
export function shortDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year!, month! - 1, day!).toLocaleDateString([], { day: 'numeric', month: 'short' });
}
