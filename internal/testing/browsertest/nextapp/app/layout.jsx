// The root layout, a server component: it imports the bridge as a page author might, which on
// the server (next build, next start) must do nothing and throw nothing.
import "webmcp-bridge-wasm";

export const metadata = { title: "Recipes" };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
