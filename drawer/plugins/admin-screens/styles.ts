/**
 * The admin screens' stylesheet, served as a file (`/assets/svc-admin.css`): the pages carry no inline style.
 *
 * Every control is at least 44 px (2.75rem) in both directions, a checkbox with the label around it (WCAG 2.5.5);
 * the keyboard focus is a 3 px ring; below 40rem (a phone) each setting stacks its label, control and help text,
 * and nothing is wider than the screen.
 */
export const ADMIN_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{scroll-padding-top:7rem}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2937;background:#f3f4f6;overflow-wrap:break-word}
[hidden]{display:none!important}
:where(.svc-admin) :focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
:where(.svc-admin) .admin-header :focus-visible{outline-color:#fff}
.admin-header{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:center;padding:.25rem 1.5rem;background:#111827;color:#f9fafb}
.admin-brand{margin-inline-end:.5rem}
.admin-header a{display:inline-flex;align-items:center;min-height:2.75rem;padding:0 .5rem;color:#e5e7eb}
.admin-header a[aria-current=page]{color:#fff;font-weight:700;text-decoration:none}
.admin-header nav{display:flex;flex-wrap:wrap;gap:0 .5rem;flex:1}
.admin-user{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;padding:.25rem 0}
main{padding:1rem 1.5rem 4rem}
:where(.svc-admin) h1{margin:.25rem 0 1rem;font-size:1.5rem;line-height:1.25}
:where(.svc-admin) h2{font-size:1.15rem;margin:0 0 .75rem}
:where(.svc-admin) h3{font-size:1rem;margin:.75rem 0 .5rem}
button,input,select,textarea{font:inherit}
.svc-admin input,.svc-admin select,.svc-admin textarea{font-weight:400}
:where(.svc-admin) button{min-height:2.75rem;min-width:2.75rem;cursor:pointer;border:1px solid #6b7280;background:#fff;border-radius:6px;padding:.4rem .9rem;color:#111827}
:where(.svc-admin) button:disabled{opacity:.55;cursor:not-allowed}
:where(.svc-admin) :where(input:not([type=checkbox],[type=radio],[type=color]),select,textarea){min-height:2.75rem;max-width:100%;padding:.4rem .6rem;border:1px solid #6b7280;border-radius:6px;background:#fff;color:#111827}
:where(.svc-admin) input[type=checkbox]{flex:none;width:1.25rem;height:1.25rem;margin:0;accent-color:#1d4ed8}
.admin-primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff;font-weight:600}
.admin-danger{border-color:#b91c1c;color:#b91c1c}
.admin-note{color:#4b5563}
.admin-error{color:#b91c1c;font-size:.9rem;margin:.2rem 0 0}
.admin-error::first-letter{text-transform:uppercase}
.admin-error:empty{display:none}
.admin-layout{display:grid;grid-template-columns:minmax(0,1fr) minmax(320px,480px);gap:1.5rem;align-items:start}
@media (max-width:1000px){.admin-layout{grid-template-columns:minmax(0,1fr)}}
.admin-toolbar{position:sticky;top:0;z-index:2;display:flex;flex-direction:column;gap:.5rem;padding:.5rem .75rem;margin-bottom:.75rem;background:#fff;border:1px solid #e5e7eb;border-radius:8px;box-shadow:0 2px 6px rgba(17,24,39,.08)}
.admin-actions{display:flex;flex-wrap:wrap;gap:.5rem}
.admin-file-actions{margin-bottom:1rem}
.admin-toolbar .admin-status{margin:0;max-height:40vh;overflow:auto}
.admin-status{padding:.5rem .75rem;border-radius:6px;background:#ecfdf5;color:#065f46}
.admin-status[data-kind=error]{background:#fef2f2;color:#991b1b}
.admin-status[data-kind=warning]{background:#fffbeb;color:#92400e}
.admin-status:empty{display:none}
.admin-status p{margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem}
.admin-problems{margin:.25rem 0 0;padding-inline-start:1.25rem}
.admin-card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.admin-card>p.admin-note{margin-top:-.25rem}
.admin-field{display:grid;grid-template-columns:minmax(10rem,16rem) minmax(0,1fr);gap:.3rem 1rem;align-items:start;padding:.6rem 0;border-top:1px solid #f3f4f6}
.admin-field:first-of-type{border-top:0}
.admin-field>label,.admin-field>.admin-label{font-weight:600;padding-top:.6rem}
.admin-field>.admin-help,.admin-field>.admin-error{grid-column:2}
.admin-field-check>.admin-check{grid-column:1/-1;display:grid;grid-template-columns:subgrid;align-items:center;min-height:2.75rem;padding-top:0;cursor:pointer}
.admin-check>input{justify-self:start}
.admin-choices{display:flex;flex-wrap:wrap;gap:0 1.25rem}
.admin-choices label{display:inline-flex;gap:.5rem;align-items:center;min-height:2.75rem;cursor:pointer}
.admin-help{color:#4b5563;font-size:.875rem;margin:0}
.admin-fieldset{border:1px solid #e5e7eb;border-radius:6px;margin:.5rem 0;padding:.25rem .75rem;min-width:0}
.admin-fieldset>legend{font-weight:700;padding:0 .25rem}
.admin-link{border:0;background:none;padding:0 .25rem;color:#1d4ed8;text-decoration:underline;text-align:start}
.admin-problems .admin-link{display:block;width:100%;padding:.5rem .25rem;color:#991b1b}
.admin-field[data-invalid] input:not([type=checkbox]),.admin-field[data-invalid] select,.admin-field[data-invalid] textarea{border-color:#b91c1c;box-shadow:0 0 0 1px #b91c1c}
.admin-field input[type=text],.admin-field input[type=number],.admin-field input[type=search],.admin-field select,.admin-field textarea{width:100%;max-width:24rem}
.admin-field textarea{min-height:5rem}
.admin-color{display:flex;gap:.5rem;align-items:center}
.admin-color input[type=color]{width:3.5rem;height:2.75rem;padding:.2rem;border:1px solid #6b7280;border-radius:6px;background:#fff}
.admin-color code{font-size:.9rem}
.admin-money{display:flex;gap:.4rem;align-items:center;max-width:24rem}
.admin-money-after{flex-direction:row-reverse;justify-content:flex-end}
.admin-money-sign{font-weight:600}
.admin-field .admin-money input{flex:1;min-width:0;width:auto}
.admin-toggle{display:inline-flex;gap:.4rem;align-items:center;min-height:2.75rem;padding-inline-end:.25rem;cursor:pointer}
.admin-list{display:grid;gap:.75rem}
.admin-item{border:1px solid #d1d5db;border-radius:8px;padding:.5rem .9rem .75rem;background:#fafafa;min-width:0}
.admin-item-head{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between}
.admin-item-head h3,.admin-item-head h4{margin:.4rem 0}
.admin-item-actions{display:flex;flex-wrap:wrap;gap:.5rem}
.admin-chosen{margin:0 0 .35rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.admin-chips{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:0 0 .35rem}
.admin-chip{display:inline-flex;align-items:center;gap:.25rem;padding:0;padding-inline-start:.75rem;border-radius:999px;background:#e5e7eb;font-size:.9rem}
.admin-chip button{border:0;border-radius:999px;background:none;padding:0}
.admin-picker{position:relative;max-width:24rem}
.admin-results{list-style:none;margin:.25rem 0 0;padding:0;border:1px solid #d1d5db;border-radius:6px;background:#fff;max-height:16rem;overflow:auto}
.admin-results:empty{display:none}
.admin-results button{display:block;width:100%;text-align:start;border:0;border-radius:0;padding:.5rem .6rem}
.admin-results button:hover,.admin-results button:focus{background:#eff6ff}
.admin-conditions{display:grid;gap:.5rem;min-width:0}
.admin-conditions>p{margin:0;display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center}
.admin-condition{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.5rem;border-inline-start:3px solid #93c5fd;background:#fff}
.admin-condition .admin-error{flex-basis:100%}
.admin-field .admin-condition select,.admin-field .admin-condition input:not([type=checkbox]){width:auto;max-width:100%}
.admin-condition .admin-money{flex:1 1 8rem}
.admin-date{display:inline-flex;flex-wrap:wrap;gap:.35rem;align-items:center}
.admin-days{display:flex;flex-wrap:wrap;gap:0 .75rem;border:0;padding:0;margin:0;min-width:0}
.admin-group{padding:.5rem;border:1px dashed #6b7280;border-radius:6px}
.admin-preview{position:sticky;top:1rem;min-width:0}
.admin-preview-scroll{overflow:auto}
.admin-preview iframe{display:block;width:100%;height:640px;border:1px solid #d1d5db;border-radius:8px;background:#fff}
.admin-preview-tools{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;justify-content:space-between;margin-bottom:.5rem}
.admin-preview-tools h2{margin:0}
.admin-preview-tools label{display:inline-flex;gap:.5rem;align-items:center;font-weight:600}
.admin-login{display:grid;gap:.75rem;max-width:22rem;background:#fff;padding:1rem;border-radius:8px;border:1px solid #e5e7eb}
.admin-login label{display:grid;gap:.25rem;font-weight:600}
.admin-range{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end}
.admin-range label{display:grid;gap:.2rem;font-weight:600}
.admin-downloads{display:flex;flex-wrap:wrap;gap:0 1.25rem;margin:.5rem 0 0}
.admin-downloads a{display:inline-flex;align-items:center;min-height:44px}
.admin-totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem;margin:0}
.admin-total{background:#f9fafb;border:1px solid #e5e7eb;border-radius:8px;padding:.6rem .8rem;min-width:0}
.admin-total dt{color:#4b5563;font-size:.85rem}
.admin-total dd{margin:0;font-size:1.35rem;font-weight:700}
.admin-chart svg{display:block;width:100%;height:auto}
.admin-chart .axis{stroke:#6b7280;stroke-width:1}
.admin-chart .grid{stroke:#e5e7eb;stroke-width:1}
.admin-chart text{font-size:12px;fill:#374151}
.admin-chart .series{fill:none;stroke-width:2.5}
.admin-legend{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:0 1rem;list-style:none;padding:0;margin:.5rem 0 0}
.admin-legend label{display:flex;gap:.5rem;align-items:center;min-height:2.75rem;cursor:pointer}
.admin-swatch{flex:none;display:inline-block;width:1rem;height:1rem;border-radius:3px}
details>summary{padding:.75rem 0;cursor:pointer}
.admin-table-scroll{overflow-x:auto}
table.admin-table{border-collapse:collapse;width:100%;font-size:.9rem}
.admin-table th,.admin-table td{padding:.3rem .5rem;border-bottom:1px solid #e5e7eb;text-align:end;white-space:nowrap}
.admin-table th:first-child,.admin-table td:first-child{text-align:start}
dialog.admin-dialog{border:0;border-radius:8px;padding:1.25rem;max-width:min(28rem,calc(100vw - 2rem));box-shadow:0 10px 30px rgba(0,0,0,.3)}
dialog.admin-dialog::backdrop{background:rgba(17,24,39,.5)}
.admin-dialog-actions{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:flex-end;margin-top:1rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:40rem){
html{scroll-padding-top:9rem}
:where(.svc-admin) h1{font-size:1.35rem}
.admin-header{padding:.25rem .75rem;gap:0 .5rem}
.admin-header nav{order:2;flex-basis:100%}
.admin-user{margin-inline-start:auto}
.admin-user-words{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
main{padding:1rem .75rem 3rem}
.admin-card{padding:.75rem 1rem}
.admin-field{grid-template-columns:minmax(0,1fr)}
.admin-field>.admin-help,.admin-field>.admin-error{grid-column:1}
.admin-field>label,.admin-field>.admin-label{padding-top:0}
.admin-field-check>.admin-check{display:flex;flex-direction:row-reverse;justify-content:flex-end;gap:.75rem}
.admin-toolbar{padding:.5rem;margin-inline:-.25rem}
.admin-toolbar .admin-status{max-height:30vh}
.admin-actions>button{flex:1 1 auto}
.admin-fieldset{padding:.25rem .5rem}
.admin-item{padding:.5rem .6rem .6rem}
.admin-range{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.5rem}
.admin-range input{width:100%;min-width:0;padding-inline:.4rem}
.admin-totals{grid-template-columns:repeat(2,minmax(0,1fr));gap:.5rem}
.admin-login{max-width:none}
}
body.svc-preview-frame{background:#f9fafb;min-height:100vh}
.preview-page{padding:1rem}
.preview-bar{height:2.5rem;border-radius:6px;background:#e5e7eb;margin-bottom:1rem}
.preview-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(6rem,1fr));gap:.75rem}
.preview-grid div{height:7rem;border-radius:6px;background:#e5e7eb}
.preview-hint{margin:1rem;color:#4b5563;font-size:.85rem}
`
