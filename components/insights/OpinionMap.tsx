import type { MapResponseValue, StanceValue } from "@/lib/schemas/insights.ts";
import { layoutMap, nodeOrder } from "@/lib/insights/layout.ts";
import { RelativeTime } from "@/components/RelativeTime.tsx";

/** Words for a stance (the shape and colour say it too, never alone). */
export const STANCE_WORDS: Record<StanceValue, string> = {
  support: "Supports",
  oppose: "Opposes",
  conditional: "Conditional",
  neutral: "Neutral",
};

const SHAPE_WORDS: Record<StanceValue, string> = {
  support: "circle",
  oppose: "square",
  conditional: "diamond",
  neutral: "triangle",
};

const RELATION_WORDS: Record<string, string> = {
  support: "supports",
  oppose: "opposes",
  supplement: "adds to",
  evolve: "refines",
};

/** A coordinate as written: to a hundredth, without float noise (2.8000000000000007). */
/**
 * Radius of a node's hit area in picture units: half the 60-unit spacing of neighbours
 * (lib/insights/layout.ts), so neighbours' areas do not overlap, and on a 390 px phone a
 * 24-answer map (about 0.45 px per unit) still gives each answer a 27 px target.
 */
const MAP_HIT_RADIUS = 30;
const at = (n: number) => Math.round(n * 100) / 100;

/**
 * The shape of a stance centred on (x, y), half-size r: coloured by its classes, or (with
 * `id`, in the picture's `<defs>`, for {@link ShapeIcon}) by what it inherits.
 */
function StanceShape(
  { stance, x, y, r, id }: { stance: StanceValue; x: number; y: number; r: number; id?: string },
) {
  const attrs = id ? { id } : { class: `map-shape stance-${stance}` };
  if (stance === "support") return <circle {...attrs} cx={at(x)} cy={at(y)} r={at(r)} />;
  if (stance === "oppose") {
    const s = r * 0.9;
    return (
      <rect {...attrs} x={at(x - s)} y={at(y - s)} width={at(2 * s)} height={at(2 * s)} rx={2} />
    );
  }
  const points = (p: [number, number][]) => p.map(([px, py]) => `${at(px)},${at(py)}`).join(" ");
  if (stance === "conditional") {
    const d = r * 1.2;
    return <polygon {...attrs} points={points([[x, y - d], [x + d, y], [x, y + d], [x - d, y]])} />;
  }
  const h = r * 1.15;
  return (
    <polygon
      {...attrs}
      points={points([[x, y - h], [x + h, y + h * 0.8], [x - h, y + h * 0.8]])}
    />
  );
}

/** The id of a stance's icon shape in the picture's `<defs>`. */
const iconId = (stance: StanceValue) => `map-icon-${stance}`;

/**
 * A small shape for the legend and the text list (decorative: the words say it): a `<use>`
 * of the stance's shape, drawn once in the picture's `<defs>` (a long thread lists dozens),
 * coloured through it by the classes on this `<svg>`, which the shape inherits.
 */
function ShapeIcon({ stance }: { stance: StanceValue }) {
  return (
    <svg
      class={`map-icon map-shape stance-${stance}`}
      viewBox="0 0 24 24"
      width="16"
      height="16"
      aria-hidden="true"
    >
      <use href={`#${iconId(stance)}`} />
    </svg>
  );
}

/**
 * A question's opinion map: the picture (an SVG drawn on the server, no script: each
 * answer a shape whose form and colour say its stance, numbered, linking to the answer),
 * a legend, and the same content as a text list (camps, answers, how they relate) for
 * screen readers and small screens. Labelled AI-written.
 */
export function OpinionMap(
  { data, href, now, standIn }: {
    data: MapResponseValue;
    /** The link to an answer (its anchor on this page, or its own page). */
    href: (messageId: string) => string;
    now: number;
    standIn: boolean;
  },
) {
  const map = data.map;
  if (!map) {
    if (data.status !== "generating") return null;
    return (
      <section class="card insights-map" aria-labelledby="map-heading" data-testid="opinion-map">
        <h2 id="map-heading">
          Opinion map <span class="badge-agent">AI-written</span>
        </h2>
        <p class="hint" role="status">
          A model is drawing how the answers line up. Reload in a moment to see it.
        </p>
      </section>
    );
  }
  const layout = layoutMap(map);
  const byId = new Map(map.nodes.map((n, i) => [n.id, { node: n, number: i + 1 }]));
  const numberOf = (id: string) => byId.get(id)!.number;
  const clustered = new Set(map.clusters.flatMap((c) => c.nodeIds));
  const loose = map.nodes.filter((n) => !clustered.has(n.id));
  const stances = [...new Set(map.nodes.map((n) => n.stance))];
  const relations = [...new Set(map.edges.map((e) => e.relation))];
  const answerItem = (id: string) => {
    const { node, number } = byId.get(id)!;
    return (
      <li key={id}>
        <ShapeIcon stance={node.stance} /> <a href={href(node.messageId)}>Answer {number}</a>{" "}
        <span class="muted">({STANCE_WORDS[node.stance].toLowerCase()})</span>:{" "}
        <span dir="auto">{node.summary}</span>
        {node.keyArgument && " "}
        {node.keyArgument && (
          <span class="map-key" dir="auto">Key argument: {node.keyArgument}</span>
        )}
      </li>
    );
  };
  return (
    <section class="card insights-map" aria-labelledby="map-heading" data-testid="opinion-map">
      <h2 id="map-heading">
        Opinion map <span class="badge-agent">AI-written</span>
        {standIn && <span class="badge-standin">stand-in model</span>}
      </h2>
      <p class="hint">
        {/* Its shapes, not the thread's count: a long thread's map is drawn from a sample. */}
        How {map.nodes.length}{" "}
        answers line up, as a model read them (it can be wrong: read the answers). Each shape is an
        answer; select one to go to it.
        {data.status === "generating" && " A newer map is being drawn."}
      </p>
      <ul class="map-legend" aria-label="Legend">
        {stances.map((s) => (
          <li key={s}>
            <ShapeIcon stance={s} /> {STANCE_WORDS[s]} ({SHAPE_WORDS[s]})
          </li>
        ))}
        {relations.map((r) => (
          <li key={r}>
            <svg class="map-icon" viewBox="0 0 28 12" width="28" height="12" aria-hidden="true">
              <path class={`map-edge relation-${r}`} d="M1 6 H27" />
            </svg>{" "}
            {RELATION_WORDS[r]}
          </li>
        ))}
      </ul>
      <svg
        class="map-picture"
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={`Opinion map of ${map.nodes.length} answers in ${map.clusters.length} camps`}
        data-testid="opinion-map-svg"
      >
        <defs>
          <marker
            id="map-arrow"
            viewBox="0 0 10 10"
            refX="8"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0 0 L10 5 L0 10 z" class="map-arrow" />
          </marker>
          {stances.map((s) => (
            <StanceShape
              key={s}
              id={iconId(s)}
              stance={s}
              x={12}
              y={12}
              r={8}
            />
          ))}
        </defs>
        {layout.edges.map((e) => (
          <path
            key={`${e.source}-${e.target}`}
            class={`map-edge relation-${e.relation}`}
            d={e.d}
            marker-end="url(#map-arrow)"
          />
        ))}
        {layout.clusters.map((c, i) => (
          <text
            key={i}
            class={`map-camp stance-text-${c.stance}`}
            x={c.x}
            y={c.y}
            text-anchor={c.anchor}
          >
            {c.label}
          </text>
        ))}
        {nodeOrder(map).map((id) => {
          const p = layout.nodes.find((n) => n.id === id)!;
          const { node } = byId.get(id)!;
          const label = `Answer ${p.number}, ${
            STANCE_WORDS[node.stance].toLowerCase()
          }: ${node.summary}`;
          return (
            <a key={id} href={href(node.messageId)} aria-label={label} class="map-node">
              <title>{label}</title>
              <circle class="map-hit" cx={p.x} cy={p.y} r={Math.max(p.r, MAP_HIT_RADIUS)} />
              <StanceShape stance={node.stance} x={p.x} y={p.y} r={p.r} />
              <text class={`map-number stance-on-${node.stance}`} x={p.x} y={p.y + 5}>
                {p.number}
              </text>
            </a>
          );
        })}
      </svg>
      <h3 class="map-list-heading">Camps and answers</h3>
      <ul class="map-list">
        {map.clusters.map((c, i) => (
          <li key={i}>
            <strong dir="auto">{c.label}</strong>{" "}
            <span class="muted">({STANCE_WORDS[c.stance].toLowerCase()})</span>
            {c.summary && <span dir="auto">: {c.summary}</span>}
            <ul>{c.nodeIds.map(answerItem)}</ul>
          </li>
        ))}
        {loose.length > 0 && (
          <li>
            <strong>In no camp</strong>
            <ul>{loose.map((n) => answerItem(n.id))}</ul>
          </li>
        )}
      </ul>
      {map.edges.length > 0 && (
        <details class="map-relations">
          <summary>How the answers relate ({map.edges.length})</summary>
          <ul>
            {map.edges.map((e) => (
              <li key={`${e.source}-${e.target}`}>
                Answer {numberOf(e.source)} {RELATION_WORDS[e.relation]} answer {numberOf(e.target)}
                {e.reason && <span dir="auto">: {e.reason}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
      {data.generatedAt !== null && (
        <p class="hint">
          Drawn <RelativeTime ms={data.generatedAt} now={now} /> from {map.nodes.length} answers.
        </p>
      )}
    </section>
  );
}
