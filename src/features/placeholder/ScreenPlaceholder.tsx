/** A screen not built yet: it names itself, so navigation can be used and tested. */
export function ScreenPlaceholder({ title }: { title: string }) {
  return (
    <section className="card" aria-labelledby="placeholder-title">
      <h1 id="placeholder-title">{title}</h1>
      <p>This screen is on its way.</p>
    </section>
  );
}
