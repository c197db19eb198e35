// `npm run cards:names-report`: how many cards, trainer cards and packs have a verified
// Japanese name, and which names are still English. Exits 1 if any Japanese name fails
// verification against the catalogue's romanised image names.
import { formatNamesReport, namesReport } from "#app/features/cards/names-report.server.ts";

const report = namesReport();
console.log(formatNamesReport(report));
if (report.unverified.length) process.exitCode = 1;
