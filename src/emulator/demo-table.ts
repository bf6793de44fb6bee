/**
 * A page with a table for flows to read with the browser node's extract action (the example "Read a
 * table into a flow"). Its rows are made up for the demo: a small price list, the same every time.
 */
export const DEMO_TABLE_PATH = "/demo/table";

const PRODUCTS: ReadonlyArray<readonly [sku: string, name: string, price: string, stock: string]> = [
  ["A-100", "Desk lamp", "24.90", "12"],
  ["A-101", "Notebook, squared", "3.50", "140"],
  ["A-102", "Fountain pen", "18.00", "0"],
  ["A-103", "Paper clips (100)", "1.20", "75"],
  ["A-104", "Stapler", "9.80", "31"],
  ["A-105", "Monitor stand", "39.00", "6"],
  ["A-106", "USB cable, 2 m", "7.40", "58"],
  ["A-107", "Desk mat", "15.60", "0"],
];

const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export const DEMO_TABLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MoreLogin emulator demo: price list</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid #ccc; padding: 0.3rem 0.5rem; text-align: left; }
  td.price, td.stock { text-align: right; }
</style>
</head>
<body>
<h1>Price list</h1>
<p>A made-up price list served by the MoreLogin emulator, for flows to read with the browser node's extract action.</p>
<table id="products">
<thead><tr><th>SKU</th><th>Product</th><th>Price</th><th>In stock</th></tr></thead>
<tbody>
${PRODUCTS.map(([sku, name, price, stock]) => `<tr data-sku="${sku}"><td>${sku}</td><td><a href="/demo?product=${sku}">${escapeHtml(name)}</a></td><td class="price">${price}</td><td class="stock">${stock}</td></tr>`).join("\n")}
</tbody>
</table>
</body>
</html>
`;
