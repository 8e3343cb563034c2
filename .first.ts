import "./main.ts";
import "./routes/_app.tsx";
import "./routes/_404.tsx";
import "./routes/_500.tsx";
import "./routes/_middleware.ts";
import "./routes/index.tsx";
