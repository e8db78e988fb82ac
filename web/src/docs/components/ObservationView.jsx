// ObservationView.jsx — an observation as its named fields (5 × 5 grids for the views) and
// as the flat vector of a vector env, indexed by envSpecs.layout.
import { envSpecs } from 'valley-farm';
import { flatten } from 'valley-farm';
import { farmFor } from '../../model/farms/index.js';

function Grid5({ label, values }) {
  return (
    <table class="docs-grid5" aria-label={label}>
      <caption>{label}</caption>
      <tbody>
        {[0, 1, 2, 3, 4].map((r) => (
          <tr>
            {[0, 1, 2, 3, 4].map((c) => (
              <td class={r * 5 + c === 12 ? 'docs-grid5-you' : undefined}>{values[r * 5 + c]}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ObservationView({ envId, observation }) {
  const spec = envSpecs[envId];
  const flat = Array.from(flatten(envId, observation));
  const grids = farmFor(envId).grids(observation);
  return (
    <div class="docs-obs">
      <div class="docs-obs-grids">
        {grids.map(([name, values]) => (
          <Grid5 label={`observation.${name}`} values={values} />
        ))}
      </div>
      <p class="docs-obs-flat" aria-label="The same observation as the flat vector">
        {spec.layout.map((f) => (
          <span class="docs-flat-field" title={`${f.name}: offset ${f.offset}, length ${f.length}`}>
            <span class="docs-flat-name">{f.name}</span>
            <code>{flat.slice(f.offset, f.offset + f.length).join(' ')}</code>
          </span>
        ))}
      </p>
    </div>
  );
}
