// SpecTables.jsx — the tables generated from envSpecs (actions, tiles, observation fields,
// flat layout), with the words from model/rules.js. Nothing here is typed by hand twice.
import { envSpecs } from 'valley-farm';
import { Tile } from '../../components/tiles/Tile.jsx';
import { farmFor } from '../../model/farms/index.js';
import { actionRows, tileRows, layoutRows, rules } from '../model/rules.js';

export function ActionTable({ envId }) {
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="actions">
        <caption>
          The {envSpecs[envId].actions.length} actions of {envId}
        </caption>
        <thead>
          <tr>
            <th scope="col">id</th>
            <th scope="col">name</th>
            <th scope="col">precondition (else illegal)</th>
            <th scope="col">effect</th>
          </tr>
        </thead>
        <tbody>
          {actionRows(envId).map((r) => (
            <tr data-action={r.name}>
              <td>{r.id}</td>
              <th scope="row">
                <code>{r.name}</code>
              </th>
              <td>{r.pre}</td>
              <td>{r.effect}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Swatch({ envId, code }) {
  const d = farmFor(envId).sampleCell(code);
  return (
    <svg class="docs-swatch" viewBox="0 0 32 32" aria-hidden="true">
      <Tile d={d} />
    </svg>
  );
}

export function TileTable({ envId }) {
  const backwards = envSpecs[envId].tiles.some((t) => t.status); // a farm whose tiles carry a status value
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="tiles">
        <caption>Tile codes of {envId}</caption>
        <thead>
          <tr>
            <th scope="col">tile</th>
            <th scope="col">code</th>
            <th scope="col">name</th>
            <th scope="col">walkable</th>
            {backwards && <th scope="col">status values</th>}
            <th scope="col">notes</th>
          </tr>
        </thead>
        <tbody>
          {tileRows(envId).map((t) => (
            <tr data-code={t.code}>
              <td>
                <Swatch envId={envId} code={t.code} />
              </td>
              <td>{t.code}</td>
              <th scope="row">
                <code>{t.name}</code>
              </th>
              <td>{t.walkable ? 'yes' : 'no'}</td>
              {backwards && <td>{t.status ? t.status.map((s, i) => `${i} ${s}`).join(', ') : '0'}</td>}
              <td>{t.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const range = (box) => `${box.shape.length ? `[${box.shape.join('×')}] ` : ''}${box.min} … ${box.max}`;

export function ObservationTable({ envId }) {
  const space = envSpecs[envId].observation;
  const words = rules[envId].observation;
  const rows = Object.entries(space).flatMap(([name, box]) =>
    box.shape
      ? [[name, range(box), words[name]]]
      : Object.entries(box).map(([sub, b]) => [`${name}.${sub}`, range(b), sub === Object.keys(box)[0] ? words[name] : '']),
  );
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="observation">
        <caption>observation fields (env.observationSpace)</caption>
        <thead>
          <tr>
            <th scope="col">field</th>
            <th scope="col">shape, range</th>
            <th scope="col">meaning</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, r, w]) => (
            <tr data-field={name}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>{r}</td>
              <td>{w}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LayoutTable({ envId }) {
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="layout">
        <caption>Flat vector of a vector env: {envSpecs[envId].obsSize} integers (envSpecs.layout)</caption>
        <thead>
          <tr>
            <th scope="col">offset</th>
            <th scope="col">length</th>
            <th scope="col">field</th>
          </tr>
        </thead>
        <tbody>
          {layoutRows(envId).map((f) => (
            <tr data-field={f.name} data-offset={f.offset} data-length={f.length}>
              <td>{f.length > 1 ? `${f.offset} … ${f.last}` : f.offset}</td>
              <td>{f.length}</td>
              <th scope="row">
                <code>{f.name}</code>
              </th>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
