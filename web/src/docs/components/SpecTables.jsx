// SpecTables.jsx — the rules pages' widgets generated from envSpecs: how the page draws each
// tile, the observation space and the flat layout of a vector env. The rules' words and their
// own tables are docs/rules/*.md (EnvPage.jsx); these add what only the page has.
import { envSpecs } from 'valley-farm';
import { Tile } from '../../components/tiles/Tile.jsx';
import { farmFor } from '../../model/farms/index.js';
import { DocLink } from './Section.jsx';

function Swatch({ envId, code }) {
  const d = farmFor(envId).sampleCell(code);
  return (
    <svg class="docs-swatch" viewBox="0 0 32 32" aria-hidden="true">
      <Tile d={d} />
    </svg>
  );
}

export function TileTable({ envId }) {
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="tiles">
        <caption>How the game draws each tile of {envId}</caption>
        <thead>
          <tr>
            <th scope="col">tile</th>
            <th scope="col">code</th>
            <th scope="col">name</th>
          </tr>
        </thead>
        <tbody>
          {envSpecs[envId].tiles.map((t) => (
            <tr data-code={t.code}>
              <td>
                <Swatch envId={envId} code={t.code} />
              </td>
              <td>{t.code}</td>
              <th scope="row">
                <code>{t.name}</code>
              </th>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const range = (box) => `${box.shape.length ? `[${box.shape.join('×')}] ` : ''}${box.min} … ${box.max}`;

export function ObservationTable({ envId }) {
  const rows = Object.entries(envSpecs[envId].observation).flatMap(([name, box]) =>
    box.shape ? [[name, range(box)]] : Object.entries(box).map(([sub, b]) => [`${name}.${sub}`, range(b)]),
  );
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="observation">
        <caption>The observation's fields, their shapes and ranges (env.observationSpace)</caption>
        <thead>
          <tr>
            <th scope="col">field</th>
            <th scope="col">shape, range</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, r]) => (
            <tr data-field={name}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>{r}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LayoutTable({ envId }) {
  const { obsSize, layout } = envSpecs[envId];
  return (
    <div class="docs-table-wrap">
      <table class="docs-table" data-table="layout">
        <caption>
          The flat row of {envId} in a vector env (<DocLink to="/api/makevec">makeVec</DocLink>): {obsSize} integers per env, env{' '}
          <var>i</var> at offset <var>i</var> × {obsSize} of one <code>Int32Array</code> (envSpecs.layout)
        </caption>
        <thead>
          <tr>
            <th scope="col">offset</th>
            <th scope="col">length</th>
            <th scope="col">field</th>
          </tr>
        </thead>
        <tbody>
          {layout.map((f) => (
            <tr data-field={f.name} data-offset={f.offset} data-length={f.length}>
              <td>{f.length > 1 ? `${f.offset} … ${f.offset + f.length - 1}` : f.offset}</td>
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
