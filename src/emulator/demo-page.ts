/** A page for flows to open in a started profile's browser; the Local API serves it without a token. */
export const DEMO_PATH = "/demo";

export const DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MoreLogin emulator demo</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
  input, button { font: inherit; padding: 0.3rem 0.6rem; }
  #greeting { font-size: 1.5rem; min-height: 2.25rem; }
</style>
</head>
<body>
<h1>MoreLogin emulator demo</h1>
<p>This page is served by the MoreLogin emulator, a stand-in for the MoreLogin APIs, so that flows have
something to open in a started profile's browser and drive with Puppeteer or Playwright.</p>
<form id="form">
  <label for="name">Your name</label>
  <input id="name" name="name" autocomplete="off">
  <button id="greet" type="submit">Greet</button>
</form>
<p id="greeting" role="status"></p>
<script>
  document.getElementById("form").addEventListener("submit", function (event) {
    event.preventDefault();
    document.getElementById("greeting").textContent = "Hello, " + document.getElementById("name").value + "!";
  });
</script>
</body>
</html>
`;
