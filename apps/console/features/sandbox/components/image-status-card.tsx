import type { ImageStatusJson, PinStatusJson } from '@agentdesk/api-contract';
import { formatDateTime } from '../../transcript';
import { formatBytes, shortImageId } from './format-sandbox';

function PinState({ pin }: { pin: PinStatusJson }) {
  return (
    <>
      <span className={`badge ${pin.pinned ? 'badge-ok' : 'badge-warn'}`}>
        {pin.pinned ? 'pinned' : 'not pinned'}
      </span>{' '}
      <span className="mono">{pin.name}</span> <span className="muted">({pin.state})</span>
    </>
  );
}

/** The sandbox image as the engine has it, against what this API server expects. */
export function ImageStatusCard({ image }: { image: ImageStatusJson }) {
  const versionMatches = image.versionLabel === image.runningVersion;
  return (
    <section className="card image-status" aria-labelledby="image-status-heading">
      <h2 id="image-status-heading">Image status</h2>
      <dl className="facts">
        <dt>Tag</dt>
        <dd className="mono">{image.tag}</dd>
        <dt>Image id</dt>
        <dd className="mono" title={image.imageId ?? undefined}>
          {image.present ? shortImageId(image.imageId) : 'missing: rebuild to create it'}
        </dd>
        <dt>Version</dt>
        <dd>
          <span className="mono">{image.versionLabel ?? 'none'}</span> (this server runs{' '}
          <span className="mono">{image.runningVersion}</span>){' '}
          <span className={`badge ${versionMatches ? 'badge-ok' : 'badge-warn'}`}>
            {versionMatches ? 'matches' : 'differs'}
          </span>
        </dd>
        <dt>Up to date</dt>
        <dd>
          <span className={`badge ${image.current ? 'badge-ok' : 'badge-warn'}`}>
            {image.current ? 'current' : 'rebuild needed'}
          </span>
        </dd>
        <dt>Pin</dt>
        <dd>
          <PinState pin={image.pin} />
        </dd>
        <dt>Size</dt>
        <dd>{formatBytes(image.sizeBytes)}</dd>
        <dt>Built at</dt>
        <dd>{image.builtAt === null ? '—' : formatDateTime(image.builtAt)}</dd>
        <dt>Base image</dt>
        <dd>
          <span className="mono">{image.baseImage.reference}</span>{' '}
          <span className="muted" title={image.baseImage.imageId ?? undefined}>
            {image.baseImage.present ? shortImageId(image.baseImage.imageId) : 'missing'}
          </span>
        </dd>
        <dt>Base image pin</dt>
        <dd>
          <PinState pin={image.baseImage.pin} />
        </dd>
        <dt>Engine</dt>
        <dd className="mono">{image.engine}</dd>
      </dl>
    </section>
  );
}
