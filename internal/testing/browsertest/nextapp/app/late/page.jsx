// A page whose client component mounts before the bridge is there: it imports the bridge with
// import() in an effect, as a page author keeps it out of the first bundle.
import Late from "./Late.jsx";

export default function Page() {
  return (
    <main>
      <h1>Late</h1>
      <Late />
    </main>
  );
}
