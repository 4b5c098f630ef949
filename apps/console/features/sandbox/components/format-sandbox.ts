/** `sha256:0123456789ab` — enough of an image id to tell two apart; the full id is in the title. */
export function shortImageId(imageId: string | null): string {
  if (imageId === null) return '—';
  return imageId.startsWith('sha256:') ? imageId.slice(0, 19) : imageId.slice(0, 12);
}

const sizeFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024 * 1024) return `${sizeFormat.format(bytes / 1024)} KiB`;
  return `${sizeFormat.format(bytes / (1024 * 1024))} MiB`;
}

export function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}
