/** The admin screens' stylesheet, served as a file (`/assets/svc-admin.css`): the pages carry no inline style. */
export const ADMIN_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2937;background:#f3f4f6}
[hidden]{display:none!important}
.admin-header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.5rem;background:#111827;color:#f9fafb}
.admin-header a{color:#e5e7eb}.admin-header a[aria-current=page]{color:#fff;font-weight:700;text-decoration:none}
.admin-header nav{display:flex;gap:1rem;flex:1}
.admin-user button{margin-inline-start:.5rem}
main{padding:1rem 1.5rem 4rem}
h1{margin:.25rem 0 1rem;font-size:1.5rem}
h2{font-size:1.15rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:.75rem 0 .5rem}
button,input,select,textarea{font:inherit}
button{cursor:pointer;border:1px solid #9ca3af;background:#fff;border-radius:6px;padding:.35rem .75rem;color:#111827}
button:disabled{opacity:.5;cursor:not-allowed}
.admin-primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff;font-weight:600}
.admin-danger{border-color:#b91c1c;color:#b91c1c}
.admin-note{color:#4b5563}
.admin-error{color:#b91c1c;font-size:.9rem;margin:.2rem 0 0}
.admin-error:empty{display:none}
.admin-layout{display:grid;grid-template-columns:minmax(0,1fr) minmax(320px,480px);gap:1.5rem;align-items:start}
@media (max-width:1000px){.admin-layout{grid-template-columns:1fr}}
.admin-toolbar{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.75rem;margin-bottom:1rem;background:#fff;border:1px solid #e5e7eb;border-radius:8px}
.admin-toolbar .admin-status{flex:1 1 100%;margin:0}
.admin-status{padding:.5rem .75rem;border-radius:6px;background:#ecfdf5;color:#065f46}
.admin-status[data-kind=error]{background:#fef2f2;color:#991b1b}
.admin-status[data-kind=warning]{background:#fffbeb;color:#92400e}
.admin-status:empty{display:none}
.admin-problems{margin:.5rem 0 0;padding-inline-start:1.25rem}
.admin-card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.admin-card>p.admin-note{margin-top:-.25rem}
.admin-field{display:grid;grid-template-columns:minmax(10rem,16rem) minmax(0,1fr);gap:.25rem 1rem;align-items:center;padding:.45rem 0;border-top:1px solid #f3f4f6}
.admin-field:first-of-type{border-top:0}
.admin-field>label,.admin-field>.admin-label{font-weight:600}
.admin-field>input[type=checkbox]{justify-self:start;width:1.15rem;height:1.15rem}
.admin-fieldset{border:1px solid #e5e7eb;border-radius:6px;margin:.5rem 0;padding:.25rem .75rem}
.admin-fieldset>legend{font-weight:700;padding:0 .25rem}
.admin-link{border:0;background:none;padding:0;color:#1d4ed8;text-decoration:underline}
.admin-field-wide{align-items:start}
.admin-field .admin-help{grid-column:2;color:#6b7280;font-size:.85rem;margin:0}
.admin-field .admin-error{grid-column:2}
.admin-field[data-invalid] input,.admin-field[data-invalid] select,.admin-field[data-invalid] textarea{border-color:#b91c1c;outline:1px solid #b91c1c}
.admin-field input[type=text],.admin-field input[type=number],.admin-field input[type=search],.admin-field select,.admin-field textarea{width:100%;max-width:24rem;padding:.35rem .5rem;border:1px solid #9ca3af;border-radius:6px;background:#fff}
.admin-field textarea{min-height:4rem}
.admin-color{display:flex;gap:.5rem;align-items:center}
.admin-color input[type=color]{width:3rem;height:2rem;padding:0;border:1px solid #9ca3af;border-radius:6px}
.admin-color code{font-size:.9rem}
.admin-toggle{display:inline-flex;gap:.4rem;align-items:center}
.admin-toggle input{width:1.15rem;height:1.15rem}
.admin-list{display:grid;gap:.75rem}
.admin-item{border:1px solid #d1d5db;border-radius:8px;padding:.5rem .9rem .75rem;background:#fafafa}
.admin-item-head{display:flex;gap:.5rem;align-items:center;justify-content:space-between}
.admin-item-head h3,.admin-item-head h4{margin:.4rem 0}
.admin-item-actions{display:flex;gap:.35rem}
.admin-chips{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:0 0 .35rem}
.admin-chip{display:inline-flex;align-items:center;gap:.25rem;padding:.1rem .2rem .1rem .55rem;border-radius:999px;background:#e5e7eb;font-size:.9rem}
.admin-chip button{border:0;background:none;padding:0 .3rem}
.admin-picker{position:relative;max-width:24rem}
.admin-results{list-style:none;margin:.25rem 0 0;padding:0;border:1px solid #d1d5db;border-radius:6px;background:#fff;max-height:14rem;overflow:auto}
.admin-results:empty{display:none}
.admin-results button{display:block;width:100%;text-align:start;border:0;border-radius:0;padding:.35rem .6rem}
.admin-results button:hover,.admin-results button:focus{background:#eff6ff}
.admin-conditions{display:grid;gap:.5rem}
.admin-condition{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;padding:.4rem;border-inline-start:3px solid #93c5fd;background:#fff}
.admin-condition select,.admin-condition input{padding:.3rem .4rem;border:1px solid #9ca3af;border-radius:6px}
.admin-condition .admin-error{flex-basis:100%}
.admin-field .admin-condition select,.admin-field .admin-condition input:not([type=checkbox]){width:auto;max-width:100%}
.admin-date{display:inline-flex;gap:.35rem;align-items:center}
.admin-days{display:flex;flex-wrap:wrap;gap:.5rem;border:0;padding:0;margin:0}
.admin-group{padding:.5rem;border:1px dashed #9ca3af;border-radius:6px}
.admin-preview{position:sticky;top:1rem}
.admin-preview-scroll{overflow:auto}
.admin-preview iframe{display:block;width:100%;height:640px;border:1px solid #d1d5db;border-radius:8px;background:#fff}
.admin-preview-tools{display:flex;gap:.5rem;align-items:center;margin-bottom:.5rem}
.admin-login{display:grid;gap:.75rem;max-width:22rem;background:#fff;padding:1rem;border-radius:8px;border:1px solid #e5e7eb}
.admin-login label{display:grid;gap:.25rem}
.admin-login input{padding:.4rem .5rem;border:1px solid #9ca3af;border-radius:6px}
.admin-range{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end}
.admin-range label{display:grid;gap:.2rem;font-weight:600}
.admin-totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem;margin:0}
.admin-total{background:#f9fafb;border:1px solid #e5e7eb;border-radius:8px;padding:.6rem .8rem}
.admin-total dt{color:#4b5563;font-size:.85rem}
.admin-total dd{margin:0;font-size:1.35rem;font-weight:700}
.admin-chart svg{display:block;width:100%;height:auto;max-height:320px}
.admin-chart .axis{stroke:#9ca3af;stroke-width:1}
.admin-chart .grid{stroke:#e5e7eb;stroke-width:1}
.admin-chart text{font-size:11px;fill:#4b5563}
.admin-chart .series{fill:none;stroke-width:2}
.admin-legend{display:flex;flex-wrap:wrap;gap:.75rem;list-style:none;padding:0;margin:.5rem 0 0;font-size:.9rem}
.admin-legend label{display:inline-flex;gap:.35rem;align-items:center}
.admin-swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:3px}
table.admin-table{border-collapse:collapse;width:100%;font-size:.9rem}
.admin-table th,.admin-table td{padding:.3rem .5rem;border-bottom:1px solid #e5e7eb;text-align:end}
.admin-table th:first-child,.admin-table td:first-child{text-align:start}
dialog.admin-dialog{border:0;border-radius:8px;padding:1.25rem;max-width:28rem;box-shadow:0 10px 30px rgba(0,0,0,.3)}
dialog.admin-dialog::backdrop{background:rgba(17,24,39,.5)}
.admin-dialog-actions{display:flex;gap:.5rem;justify-content:flex-end;margin-top:1rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
body.svc-preview-frame{background:#f9fafb;min-height:100vh}
.preview-page{padding:1rem}
.preview-bar{height:2.5rem;border-radius:6px;background:#e5e7eb;margin-bottom:1rem}
.preview-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(6rem,1fr));gap:.75rem}
.preview-grid div{height:7rem;border-radius:6px;background:#e5e7eb}
.preview-hint{margin:1rem;color:#6b7280;font-size:.85rem}
`
