// The home page: server-rendered, with a client component that imports the bridge and registers
// a tool with the hook.
import Recipes from "./Recipes.jsx";

export default function Page() {
  return (
    <main>
      <h1>Recipes</h1>
      <Recipes />
    </main>
  );
}
