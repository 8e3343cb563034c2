import { Footer } from "@/components/Footer.tsx";
import { Header } from "@/components/Header.tsx";
import { SanctionBanner } from "@/components/SanctionBanner.tsx";
import { asset } from "@/lib/fresh/assets.ts";
import { beginPageMeta, SiteMeta } from "@/lib/seo/page_meta.tsx";
import { define } from "@/lib/state.ts";

/** The document shell around every page. */
export default define.page(function App({ Component, state, url }) {
  beginPageMeta();
  return (
    <html lang="en" data-theme={state.theme === "auto" ? undefined : state.theme}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <link rel="stylesheet" href={asset("styles.css")} />
        <link rel="icon" href={asset("favicon.svg")} type="image/svg+xml" />
      </head>
      <body>
        <Header state={state} url={url} />
        <main id="main">
          <SanctionBanner sanction={state.user?.sanction} />
          <div class="container">
            <Component />
          </div>
        </main>
        <Footer />
        <SiteMeta origin={state.services.config.appOrigin} url={url} />
      </body>
    </html>
  );
});
