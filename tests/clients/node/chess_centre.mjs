// Replica of The Chess Centre platform's ECF Lambdas, written for ecfgrading's client
// compatibility test (tests/clients/test_node_clients.py).
//
// Original: chess-centre/platform (MIT, "Copyright (c) 2023 Sheffield Chess Centre"),
// commit f36d24f2, chess-centre-app/amplify/backend/function/:
//   ecfHistoricRating/src/ecfAPI.js and index.js
//   ecfRatingUpdater/src/ecfAPI.js and index.js
//   ecfPlayer/src/index.js
//   ecfPlayerGames/src/ecfAPI.js and index.js
// Our own replica of their requests and parsing (nothing copied): https.get resolving
// with the raw body whatever the status, JSON.parse by the caller, the same URLs
// (ratings/{S|R|Standard}/{ecfId}/{date}, players/code/{ecfId},
// games/{Standard|Rapid}/player/{ecfId}/limit/150), the same dates, keys read, merges,
// filters, result mapping and console lines.
// Changed: the host (ECF_BASE, the http module for an http address); DynamoDB's member
// table becomes MEMBERS (JSON: [{id, name, ecfId, ecfRating, ecfRapid}]); the games'
// event filter phrase "The Chess Centre" comes from PHRASE (the demo has no such events);
// writes, e-mail and the event table are left out, and what would be written is printed
// as the last line. Run: node chess_centre.mjs ecfHistoricRating|ecfRatingUpdater|
// ecfPlayer <id>|ecfPlayerGames

import http from "node:http"
import https from "node:https"

const HOST = process.env.ECF_BASE || "https://www.ecfrating.org.uk"
const ROOT = `${HOST}/v2/new/api.php?v2`
const MEMBERS = JSON.parse(process.env.MEMBERS || "[]")
const PHRASE = process.env.PHRASE || "The Chess Centre"
const TOTAL_GAMES_TO_CHECK = 150

const fetchData = url => new Promise((resolve, reject) => {
    const client = url.startsWith("https:") ? https : http
    client.get(url, response => {
        let data = ""
        response.on("data", chunk => { data += chunk })
        response.on("end", () => resolve(data))
        response.on("error", e => reject("error", e))
    })
})

// -- ecfHistoricRating ------------------------------------------------------------------

const getRatings = async (id, type = "S") => {
    const urls = []
    for (let month = 0; month < 5; month++) {
        const currentDate = new Date()
        const date = new Date(currentDate.setMonth(currentDate.getMonth() - month))
        urls.push(`${ROOT}/ratings/${type}/${id}/${date.toISOString().split("T")[0]}`)
    }
    const data = await Promise.all(urls.map(fetchData))
    if (data && data.length > 0) {
        return data.map(result => {
            const { effective_date, revised_rating, domain } = JSON.parse(result)
            const month = effective_date ? new Date(effective_date).toLocaleString("default", { month: "long" }) : ""
            return {
                date: effective_date,
                month,
                standard: domain === "S" ? (revised_rating ? revised_rating : 0) : 0,
                rapid: domain === "R" ? (revised_rating ? revised_rating : 0) : 0,
            }
        })
    }
    return []
}

const getHistoricRatings = async id => {
    try {
        const standard = await getRatings(id, "S")
        const rapid = await getRatings(id, "R")
        return standard.map(info => ({ ...info, rapid: rapid.find(r => info.date === r.date)?.rapid || 0 }))
    } catch (e) {
        console.log("Error", e)
        return []
    }
}

async function ecfHistoricRating() {
    console.log(`Fetching historic rating data for ${MEMBERS.length} members`)
    const historicData = {}
    for (const member of MEMBERS) {
        const data = await getHistoricRatings(member.ecfId)
        if (data && data.length > 0) historicData[member.id] = data
        else {
            console.log(`Hmm, no rating data for ${member.name}`)
            console.log("No data!")
        }
    }
    return historicData
}

// -- ecfRatingUpdater -------------------------------------------------------------------

const firstOfMonth = () => {
    const today = new Date()
    return new Date(today.getFullYear(), today.getMonth(), 1).toISOString().slice(0, 10)
}

async function ecfRatingUpdater() {
    console.log(`Preparing to update ${MEMBERS.length} member records`)
    const all = await Promise.all(MEMBERS.map(async m => {
        console.log(`Fetching rating info for ${m.name}`)
        const info = await fetchData(`${ROOT}/players/code/${m.ecfId}`)
        const standard = await fetchData(`${ROOT}/ratings/S/${m.ecfId}/${firstOfMonth()}`)
        const rapid = await fetchData(`${ROOT}/ratings/R/${m.ecfId}/${firstOfMonth()}`)
        return {
            id: m.id, ecfId: m.ecfId, name: m.name, oldRating: m.ecfRating, oldRapid: m.ecfRapid,
            ...JSON.parse(info), standard: JSON.parse(standard), rapid: JSON.parse(rapid),
        }
    }))
    console.log("Updating member records")
    const updates = {}
    for (const member of all) {
        if (!member.standard.success && !member.rapid.success) {
            console.log(`${member.name} doesn't have any ratings! Please check ${member.ecfId} for user ${member.id}`)
            continue
        }
        console.log(`Updated record for ${member.name} ${member.id} ${member.standard?.revised_rating} ${member.rapid?.revised_rating}`)
        updates[member.id] = {
            ecfRating: member.standard?.revised_rating || null,
            ecfRapid: member.rapid?.revised_rating || null,
            gender: member.gender,
            club: member.club_name,
            fideId: member?.FIDE_no || null,
            ecfMembership: member.category,
        }
    }
    return updates
}

// -- ecfPlayer --------------------------------------------------------------------------

async function ecfPlayer(id) {
    const date = firstOfMonth()
    console.log("GET: getECFPlayerInfo", id)
    const info = await fetchData(`${ROOT}/players/code/${id}`)
    console.log("GET: getECFPlayerRating", id, date)
    const rating = await fetchData(`${ROOT}/ratings/Standard/${id}/${date}`)
    const data = { info: JSON.parse(info), rating: JSON.parse(rating) }
    return { statusCode: 200, body: JSON.stringify(data) }
}

// -- ecfPlayerGames ---------------------------------------------------------------------

function eventNameCheck(game) {
    let name = ""
    if (game.event_name) name = game.event_name
    else if (game.org_name) name = game.org_name
    return name.replace(`${PHRASE} `, "").replace(`${PHRASE} - `, "").replace(PHRASE, "")
}

function calculateGameResult(colour, score) {
    if (score === 5) return "0.5-0.5"
    if (colour === "W" && score === 1) return "1-0"
    if (colour === "W" && score === 0) return "0-1"
    if (colour === "B" && score === 1) return "0-1"
    if (colour === "B" && score === 0) return "1-0"
    return "0.5-0.5"
}

function stageGames(member, games, members, type) {
    const json = (raw => {
        try {
            return JSON.parse(raw)
        } catch (err) {
            console.log("Error parsing JSON", type)
            return false
        }
    })(games)
    if (!(json && json.games)) return []
    const results = json.games.filter(({ event_name, org_name }) => {
        try {
            return event_name.toString().includes(PHRASE) || org_name.toString().includes(PHRASE)
        } catch (error) {
            console.log("error", event_name, member)
            return false
        }
    })
    return results.reduce((list, game) => {
        const opponent = members.find(m => m.ecfId.includes(game.opponent_no))
        if (!(opponent && opponent.id)) return list
        const white = game.colour === "W" ? member : opponent
        const black = game.colour === "B" ? member : opponent
        return [...list, {
            whiteMemberId: white.id, whiteName: white.name,
            blackMemberId: black.id, blackName: black.name,
            date: game.game_date,
            whiteRating: type === "standard" ? white.ecfRating : white.ecfRapid,
            blackRating: type === "standard" ? black.ecfRating : black.ecfRapid,
            eventName: eventNameCheck(game),
            result: calculateGameResult(game.colour, game.score),
            type,
        }]
    }, [])
}

async function ecfPlayerGames() {
    console.log(`Fetching games for ${MEMBERS.length} players.`)
    const all = await Promise.all(MEMBERS.map(async member => {
        const standard = await fetchData(`${ROOT}/games/Standard/player/${member.ecfId}/limit/${TOTAL_GAMES_TO_CHECK}`)
        const rapid = await fetchData(`${ROOT}/games/Rapid/player/${member.ecfId}/limit/${TOTAL_GAMES_TO_CHECK}`)
        return [...stageGames(member, standard, MEMBERS, "standard"), ...stageGames(member, rapid, MEMBERS, "rapid")]
    }))
    return all.flat(2).filter((value, index, arr) =>
        arr.findIndex(t => JSON.stringify(t) === JSON.stringify(value)) === index)
}

// ecfRatingUpdater's and ecfPlayerGames' handlers log any error ("Error", error) and
// answer 200; ecfPlayer's does not catch, so its Lambda fails.
const logged = lambda => async (...args) => {
    try {
        return await lambda(...args)
    } catch (error) {
        console.log("Error", error)
        return null
    }
}
const LAMBDAS = {
    ecfHistoricRating,
    ecfRatingUpdater: logged(ecfRatingUpdater),
    ecfPlayer,
    ecfPlayerGames: logged(ecfPlayerGames),
}
const [name, ...args] = process.argv.slice(2)
console.log(JSON.stringify(await LAMBDAS[name](...args)))
