// Replica of the Bristol league site's ECF proxy, written for ecfgrading's client
// compatibility test (tests/clients/test_node_clients.py).
//
// Original: FactandStory/bristol-chess-proxy, api/ecf.js (a Vercel handler), commit
// 80e8dbc1 (2026-06-22). The repository has no licence file (all rights reserved), so
// nothing of it is copied: this is our own replica of its requests and parsing.
// Same as the original: the v2 URLs (club_players/{club}, ratings/{S|R|B}/{code}/{date},
// list_top_players.php with its exact query), the request headers, `!response.ok` thrown
// as an error, the per-club roster states (ok / empty / stale / error) with 3 attempts
// 300 ms apart, the column lookup by name (ECF_code, full_name, first_name, last_name,
// club_name, std/rpd/btz) with p[0] as the fallback code, parseRevisedRating
// (revised_rating ?? original_rating ?? rating, digits only, 0 as none), the juniors'
// match of list_top_players' ECFcode against the rosters' ECF_code, and the actions
// bristol_players, bristol_improvement, bristol_juniors, debug_u18 and the pass-through.
// Changed: the host (ECF_BASE) and the club codes (BRISTOL_CLUBS: Bristol's clubs are not
// in the demo); two fields are added for the test: bristol_improvement's `errored` (the
// codes whose rating fetch failed all its attempts, fetchRating's flag, which the
// original's player_year reads) and bristol_juniors' `listed` (how many players the
// U18 list gave). Vercel's req/res become a small stand-in run from the command line:
//   node bristol_proxy.mjs action=bristol_players
// prints the answer's JSON ({status, body}) as its last line.

const BASE = process.env.ECF_BASE || "https://rating.englishchess.org.uk"
const BRISTOL_CLUBS = (process.env.BRISTOL_CLUBS ||
    "4DAF,4BAC,4BRC,4BRG,4SEM,4BRH,4PTH,4YAT,4SBR,4369,4BRL,4BRU").split(",")
const HEADERS = {
    "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Accept": "application/json",
    "Referer": "https://rating.englishchess.org.uk/",
}
const U18_URL = `${BASE}/v2/new/list_top_players.php?domain=S&age_limit=U18&age_class=under&age_col=age31dec&nation=ENG&gender=both&type=rating&format=json&count=500`

const CACHE = {}
const CACHE_TTL = 24 * 60 * 60 * 1000
const LAST_GOOD_ROSTER = {}
let LAST_ROSTER_DIAG = []

function clubName(code, ecfName) {
    if (ecfName && ecfName.trim()) return ecfName.trim()
    return code
}

async function fetchECF(endpoint) {
    const cached = CACHE[endpoint]
    if (cached && Date.now() - cached.ts < CACHE_TTL) return { data: cached.data, hit: true }
    const response = await fetch(`${BASE}/v2/new/api.php?${endpoint}`, { headers: HEADERS })
    if (!response.ok) throw new Error(`ECF error: ${response.status}`)
    const data = await response.json()
    CACHE[endpoint] = { data, ts: Date.now() }
    return { data, hit: false }
}

async function fetchClubRoster(code) {
    let lastErr = null
    for (let attempt = 0; attempt < 3; attempt++) {
        try {
            const r = await fetchECF(`v2/club_players/${code}`)
            const rows = (r && r.data && r.data.players) || []
            if (rows.length > 0) {
                LAST_GOOD_ROSTER[code] = r.data
                return { code, data: r.data, status: "ok", count: rows.length }
            }
            return { code, data: r.data, status: "empty", count: 0 }
        } catch (e) {
            lastErr = e
            if (attempt < 2) await new Promise(done => setTimeout(done, 300))
        }
    }
    if (LAST_GOOD_ROSTER[code]) {
        const rows = LAST_GOOD_ROSTER[code].players || []
        return { code, data: LAST_GOOD_ROSTER[code], status: "stale", count: rows.length }
    }
    return { code, data: null, status: "error", count: 0, error: lastErr ? String(lastErr.message || lastErr) : "unknown" }
}

function columnsOf(data, domain) {
    const cols = data.column_names || []
    return {
        ecf: cols.indexOf("ECF_code"),
        full: cols.indexOf("full_name"),
        fname: cols.indexOf("first_name"),
        lname: cols.indexOf("last_name"),
        club: cols.indexOf("club_name"),
        rating: cols.indexOf(domain),
    }
}

async function getAllBristolPlayers(domain = "std") {
    const results = await Promise.all(BRISTOL_CLUBS.map(code => fetchClubRoster(code)))
    LAST_ROSTER_DIAG = results.map(r => ({ club: clubName(r.code, ""), code: r.code, count: r.count, status: r.status }))
    const seen = new Set()
    const players = []
    results.forEach(result => {
        if (!result || !result.data) return
        const idx = columnsOf(result.data, domain)
        const rows = result.data.players || []
        rows.forEach(p => {
            const ecf = idx.ecf >= 0 ? p[idx.ecf] : p[0]
            if (!ecf || seen.has(ecf)) return
            seen.add(ecf)
            const rating = idx.rating >= 0 ? p[idx.rating] : null
            const ratingNum = rating ? parseInt(String(rating).replace(/[^0-9]/g, "")) : NaN
            const full = idx.full >= 0 && p[idx.full] ? p[idx.full] : `${p[idx.fname] || ""} ${p[idx.lname] || ""}`.trim()
            players.push({
                ecf_code: ecf,
                full_name: full,
                club: clubName(result.code, idx.club >= 0 ? p[idx.club] : ""),
                std_current: isNaN(ratingNum) || ratingNum === 0 ? null : ratingNum,
            })
        })
    })
    return players
}

function parseRevisedRating(hist) {
    if (!hist) return null
    const raw = hist.revised_rating ?? hist.original_rating ?? hist.rating
    if (!raw) return null
    const n = parseInt(String(raw).replace(/[^0-9]/g, ""))
    return isNaN(n) || n === 0 ? null : n
}

async function fetchRating(code, date, letter, attempts = 4) {
    for (let a = 0; a < attempts; a++) {
        try {
            const r = await fetchECF(`v2/ratings/${letter}/${code}/${date}`)
            return { rating: parseRevisedRating(r.data), errored: false }
        } catch (e) {
            if (a < attempts - 1) await new Promise(done => setTimeout(done, 200))
        }
    }
    return { rating: null, errored: true }
}

export default async function handler(req, res) {
    const { endpoint, action } = req.query

    if (action === "bristol_players") {
        try {
            const players = (await getAllBristolPlayers()).map(p => ({
                ecf_code: p.ecf_code, full_name: p.full_name, club: p.club, std: p.std_current,
                rpd: null, btz: null, member_no: null,
            }))
            return res.status(200).json({ players, total: players.length, clubs: LAST_ROSTER_DIAG })
        } catch (err) {
            return res.status(500).json({ error: err.message })
        }
    }

    if (action === "bristol_improvement") {
        try {
            const players = (await getAllBristolPlayers()).filter(p => p.std_current !== null)
            const now = new Date()
            const refDate = new Date(now.getFullYear(), now.getMonth() - 1, 1).toISOString().split("T")[0]
            const pool = players.slice().sort((a, b) => b.std_current - a.std_current)
            const history = await Promise.all(pool.map(p =>
                fetchRating(p.ecf_code, refDate, "S").then(r => ({ ecf: p.ecf_code, ...r }))))
            const improved = []
            const errored = []
            history.forEach(({ ecf, rating, errored: failed }) => {
                if (failed) errored.push(ecf)
                const player = pool.find(p => p.ecf_code === ecf)
                if (!player || !rating) return
                improved.push({ ...player, std_previous: rating, delta: player.std_current - rating })
            })
            improved.sort((a, b) => b.delta - a.delta)
            return res.status(200).json({ players: improved, ref_date: refDate, errored })
        } catch (err) {
            return res.status(500).json({ error: err.message })
        }
    }

    if (action === "debug_u18") {
        try {
            const response = await fetch(U18_URL, { headers: HEADERS })
            if (!response.ok) return res.status(response.status).json({ error: `U18 error: ${response.status}` })
            const data = await response.json()
            const sample = Array.isArray(data) ? data.slice(0, 3)
                : data.players ? { keys: Object.keys(data.players[0] || {}), sample: data.players.slice(0, 3) }
                : { keys: Object.keys(data), raw: JSON.stringify(data).slice(0, 500) }
            return res.status(200).json(sample)
        } catch (err) {
            return res.status(500).json({ error: err.message })
        }
    }

    if (action === "bristol_juniors") {
        try {
            const response = await fetch(U18_URL, { headers: HEADERS })
            if (!response.ok) throw new Error(`ECF U18 error: ${response.status}`)
            const u18Data = await response.json()
            const rosters = await Promise.all(BRISTOL_CLUBS.map(code =>
                fetchECF(`v2/club_players/${code}`).then(r => ({ ...r, clubCode: code })).catch(() => null)))
            const bristolCodes = new Map()
            rosters.forEach(result => {
                if (!result || !result.data) return
                const cols = result.data.column_names || []
                const ecfIdx = cols.indexOf("ECF_code")
                const clubIdx = cols.indexOf("club_name")
                ;(result.data.players || []).forEach(p => {
                    const ecf = ecfIdx >= 0 ? p[ecfIdx] : p[0]
                    if (ecf) bristolCodes.set(ecf, clubName(result.clubCode, clubIdx >= 0 ? p[clubIdx] : ""))
                })
            })
            const juniors = (u18Data.players || [])
                .map((p, i) => ({ ...p, _index: i + 1 }))
                .filter(p => bristolCodes.has(p.ECFcode))
                .map(p => ({
                    ecf_code: p.ECFcode,
                    full_name: p.full_name || "",
                    club: bristolCodes.get(p.ECFcode) || p.club || "",
                    std: p.current_rating || null,
                    prior: p.prior_rating || null,
                    title: p.title || "",
                    rank_england: p._index,
                }))
            return res.status(200).json({ players: juniors, total: juniors.length, listed: (u18Data.players || []).length })
        } catch (err) {
            return res.status(500).json({ error: err.message })
        }
    }

    if (!endpoint) return res.status(400).json({ error: "Missing endpoint parameter" })
    const allowed = /^v2\/(club_players|clubs|players|ratings|games)\/|^v2\/new\/list_top_players\.php/
    if (!allowed.test(endpoint)) return res.status(403).json({ error: "Endpoint not allowed" })
    try {
        const { data } = await fetchECF(endpoint)
        return res.status(200).json(data)
    } catch (err) {
        return res.status(500).json({ error: err.message })
    }
}

// The stand-in for Vercel: the query from the command line, the answer printed last.
const query = Object.fromEntries(process.argv.slice(2).map(arg => {
    const at = arg.indexOf("=")
    return [arg.slice(0, at), arg.slice(at + 1)]
}))
let status = 200
const res = {
    status(code) { status = code; return this },
    json(body) { console.log(JSON.stringify({ status, body })); return this },
}
await handler({ method: "GET", query }, res)
