<?php
/**
 * Replica of the WordPress plugin chess-army-knife's ECF client and of its consumers'
 * parsing, written for ecfgrading's client compatibility test
 * (tests/clients/test_php_clients.py).
 *
 * Original: Glazbee/chess-army-knife (GPLv2 or later, readme.txt), files
 * includes/class-ecf-client.php (commit 486f0962, and 4500b3a5 for the older
 * get_club_players and search_players), src/club-results/render.php (4500b3a5),
 * src/featured-player/render.php (6f7095bf), includes/class-member-audit.php (99f147ab:
 * verify_ecf_code, is_not_found) and the fuzzy-names suggester of includes/blocks.php
 * (4500b3a5). Our own replica of their requests and parsing, nothing copied: the same
 * REST paths and parameters (rawurlencoded, codes reduced to digits, domains S..BW,
 * limits 1..500), the envelope check (`$code >= 400 || empty($json['success'])` is an
 * error carrying `message` and the status; otherwise `data`), and the same keys read:
 * data.games, data.players, data.column_names, revised_rating ?? original_rating,
 * full_name, club_name, title, score '1'/'5'/'0', game_date, opponent_name.
 * Changed: the base URL (ECF_BASE); WordPress' HTTP, cache and settings become the small
 * stand-ins below (no caching); what a block would render is printed as JSON, with the
 * counts of games fetched and kept before the block's cut to 20 (`fetched`, `kept`).
 *
 * Run: php chess_army_knife.php COMMAND ARGS...
 *   club-results CLUB DOMAIN | featured-player CODE DOMAIN | games CODE DOMAIN LIMIT |
 *   club-ratings CLUB DOMAIN CODE... | suggest NAME | verify CODE
 */

// -- WordPress stand-ins ----------------------------------------------------------------

class WP_Error {
	public function __construct( public string $code, public string $message, public $data = null ) {}
	public function get_error_code() { return $this->code; }
	public function get_error_message() { return $this->message; }
	public function get_error_data() { return $this->data; }
}

function is_wp_error( $thing ) {
	return $thing instanceof WP_Error;
}

function add_query_arg( array $args, string $url ) {
	$pairs = array();
	foreach ( $args as $key => $value ) {
		$pairs[] = $key . '=' . $value; // values arrive rawurlencoded, as the plugin sends them
	}
	return $url . ( $pairs ? '?' . implode( '&', $pairs ) : '' );
}

function wp_remote_get( string $url, array $args ) {
	$context = stream_context_create(
		array(
			'http' => array(
				'timeout'       => $args['timeout'],
				'user_agent'    => $args['user-agent'],
				'ignore_errors' => true, // WordPress returns 4xx and 5xx answers as responses
			),
		)
	);
	$body = @file_get_contents( $url, false, $context );
	if ( false === $body ) {
		return new WP_Error( 'http_request_failed', 'could not connect to ' . $url );
	}
	preg_match( '{^HTTP/\S+ (\d{3})}', $http_response_header[0], $status );
	return array( 'code' => (int) $status[1], 'body' => $body );
}

// -- the ECF client ---------------------------------------------------------------------

class ECF_Client {

	const ROSTER_COLUMNS = array( 'S' => 'std', 'R' => 'rpd', 'B' => 'btz' );

	public static function base() {
		return ( getenv( 'ECF_BASE' ) ?: 'https://rating.englishchess.org.uk' ) . '/api';
	}

	public static function normalise_code( $code ) {
		return preg_replace( '/[^0-9]/', '', trim( (string) $code ) );
	}

	public static function normalise_domain( $domain ) {
		$domain = strtoupper( trim( (string) $domain ) );
		return in_array( $domain, array( 'S', 'R', 'B', 'SW', 'RW', 'BW' ), true ) ? $domain : 'S';
	}

	public static function get_rating( $code, $domain = 'S' ) {
		$code = self::normalise_code( $code );
		if ( '' === $code ) {
			return new WP_Error( 'ecf_bad_code', 'Please provide an ECF rating code.' );
		}
		$query = array( 'player_no' => $code, 'domain' => self::normalise_domain( $domain ), 'date' => gmdate( 'Y-m-d' ) );
		return self::request( '/ratings', $query );
	}

	public static function get_player_by_code( $code ) {
		$code = self::normalise_code( $code );
		if ( '' === $code ) {
			return new WP_Error( 'ecf_bad_code', 'Please provide an ECF rating code.' );
		}
		return self::request( '/players/rating-code', array( 'code' => $code ) );
	}

	/** The older plugin's player search (removed later): data.players. */
	public static function search_players( $name ) {
		$name = trim( (string) $name );
		if ( strlen( $name ) < 3 ) {
			return array();
		}
		$result = self::request( '/players/fuzzy-names', array( 'name' => $name ) );
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		return isset( $result['players'] ) ? $result['players'] : array();
	}

	public static function get_games( $player_no, $domain = 'S', $limit = 100 ) {
		$player_no = self::normalise_code( $player_no );
		$limit     = max( 1, min( 500, (int) $limit ) );
		if ( '' === $player_no ) {
			return new WP_Error( 'ecf_bad_code', 'Please provide an ECF rating code.' );
		}
		$query  = array( 'player_no' => $player_no, 'domain' => self::normalise_domain( $domain ), 'limit' => $limit );
		$result = self::request( '/games', $query );
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		return isset( $result['games'] ) ? $result['games'] : array();
	}

	/** The older plugin's roster: data.column_names and data.players. */
	public static function get_club_players( $club_code ) {
		$club_code = strtoupper( trim( (string) $club_code ) );
		if ( '' === $club_code ) {
			return new WP_Error( 'ecf_bad_club', 'Please provide an ECF club code.' );
		}
		$result = self::request( '/clubs/players', array( 'code' => $club_code ) );
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		return array(
			'columns' => isset( $result['column_names'] ) ? $result['column_names'] : array(),
			'players' => isset( $result['players'] ) ? $result['players'] : array(),
		);
	}

	/** The newer plugin's hourly refresh: ratings of the wanted players from the roster. */
	public static function get_club_ratings( $club_code, $domain, array $wanted ) {
		$club_code = strtoupper( preg_replace( '/[^0-9A-Za-z]/', '', (string) $club_code ) );
		$domain    = self::normalise_domain( $domain );
		if ( '' === $club_code ) {
			return new WP_Error( 'ecf_bad_club', 'Please provide an ECF club code.' );
		}
		if ( ! isset( self::ROSTER_COLUMNS[ $domain ] ) ) {
			return new WP_Error( 'ecf_roster_domain', 'The ECF club list only has standard, rapid and blitz ratings.' );
		}
		$keep = array();
		foreach ( $wanted as $code ) {
			$digits = self::normalise_code( $code );
			if ( '' !== $digits ) {
				$keep[ $digits ] = true;
			}
		}
		$result = self::request( '/clubs/players', array( 'code' => $club_code ) );
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		$columns = array_flip( isset( $result['column_names'] ) ? (array) $result['column_names'] : array() );
		$code_at = $columns['ECF_code'] ?? null;
		$rate_at = $columns[ self::ROSTER_COLUMNS[ $domain ] ] ?? null;
		if ( null === $code_at || null === $rate_at ) {
			return new WP_Error( 'ecf_bad_response', 'The ECF club list was not in the expected form.' );
		}
		$ratings = array();
		foreach ( isset( $result['players'] ) ? (array) $result['players'] : array() as $row ) {
			if ( ! isset( $row[ $code_at ] ) ) {
				continue;
			}
			$digits = self::normalise_code( $row[ $code_at ] );
			if ( ! isset( $keep[ $digits ] ) ) {
				continue;
			}
			$value              = $row[ $rate_at ] ?? null;
			$ratings[ $digits ] = isset( $value ) && is_numeric( $value ) && (int) $value > 0 ? (int) $value : null;
		}
		return $ratings;
	}

	protected static function request( $path, $query = array() ) {
		$url      = add_query_arg( array_map( 'rawurlencode', $query ), self::base() . $path );
		$response = wp_remote_get( $url, array( 'timeout' => 12, 'user-agent' => 'chess-army-knife WordPress Plugin/replica; http://example.org/' ) );
		if ( is_wp_error( $response ) ) {
			return $response;
		}
		$code = $response['code'];
		$json = json_decode( $response['body'], true );
		if ( null === $json && JSON_ERROR_NONE !== json_last_error() ) {
			return new WP_Error( 'ecf_bad_response', 'The ECF ratings service returned an unreadable response.' );
		}
		if ( $code >= 400 || empty( $json['success'] ) ) {
			$message = isset( $json['message'] ) ? $json['message'] : sprintf( 'ECF ratings service error (HTTP %d).', $code );
			return new WP_Error( 'ecf_api_error', $message, array( 'status' => $code ) );
		}
		return isset( $json['data'] ) ? $json['data'] : array();
	}
}

// -- the consumers ----------------------------------------------------------------------

/** club-results/render.php with its defaults (12 players, 5 games each, 20 results) and
 * a window of days long enough for the demo's seasons (a block setting). */
function club_results( $club_code, $domain ) {
	$domain = ECF_Client::normalise_domain( $domain );
	$roster = ECF_Client::get_club_players( $club_code );
	if ( is_wp_error( $roster ) ) {
		return array( 'notice' => 'Could not load the club roster from the ECF API: ' . $roster->get_error_message() );
	}
	$columns = $roster['columns'];
	$rows    = $roster['players'];
	if ( empty( $rows ) || empty( $columns ) ) {
		return array( 'empty' => 'No players were found for this club code.' );
	}
	$idx        = array_flip( $columns );
	$rating_idx = $idx[ array( 'S' => 'std', 'R' => 'rpd', 'B' => 'btz' )[ $domain ] ?? 'std' ] ?? null;
	$code_idx   = $idx['ECF_code'] ?? null;
	$name_idx   = $idx['full_name'] ?? null;
	$players    = array();
	foreach ( $rows as $row ) {
		if ( null === $code_idx || null === $name_idx || ! isset( $row[ $code_idx ] ) ) {
			continue;
		}
		$players[] = array(
			'code'   => (string) $row[ $code_idx ],
			'name'   => (string) $row[ $name_idx ],
			'rating' => ( null !== $rating_idx && isset( $row[ $rating_idx ] ) ) ? (int) $row[ $rating_idx ] : 0,
		);
	}
	usort( $players, fn( $a, $b ) => $b['rating'] <=> $a['rating'] );
	$players = array_slice( $players, 0, 12 );
	if ( empty( $players ) ) {
		return array( 'empty' => 'No players with a usable ECF code were found for this club.' );
	}
	$cutoff  = gmdate( 'Y-m-d', strtotime( '-100000 days' ) );
	$labels  = array( '1' => 'Win', '5' => 'Draw', '0' => 'Loss' );
	$results = array();
	$fetched = 0;
	foreach ( $players as $player ) {
		$games = ECF_Client::get_games( $player['code'], $domain, 5 );
		if ( is_wp_error( $games ) || empty( $games ) ) {
			continue;
		}
		foreach ( $games as $game ) {
			++$fetched;
			$score = isset( $game['score'] ) ? (string) $game['score'] : '';
			if ( ! isset( $labels[ $score ] ) || empty( $game['game_date'] ) || $game['game_date'] < $cutoff || empty( $game['opponent_name'] ) ) {
				continue;
			}
			$results[] = array(
				'date'          => $game['game_date'],
				'player_name'   => $player['name'],
				'opponent_name' => $game['opponent_name'],
				'result_label'  => $labels[ $score ],
				'colour'        => isset( $game['colour'] ) ? strtoupper( $game['colour'] ) : '',
				'event_name'    => isset( $game['event_name'] ) ? $game['event_name'] : '',
			);
		}
	}
	usort( $results, fn( $a, $b ) => strcmp( $b['date'], $a['date'] ) );
	return array( 'players' => $players, 'fetched' => $fetched, 'kept' => count( $results ), 'results' => array_slice( $results, 0, 20 ) );
}

/** featured-player/render.php: the name ("Surname, Forename" turned round), the rating,
 * the club and the title. */
function featured_player( $code, $domain ) {
	$name   = '';
	$club   = '';
	$title  = '';
	$rating = '';
	$player = ECF_Client::get_player_by_code( $code );
	if ( ! is_wp_error( $player ) && is_array( $player ) ) {
		if ( ! empty( $player['full_name'] ) ) {
			$name = implode( ' ', array_reverse( array_map( 'trim', explode( ',', $player['full_name'], 2 ) ) ) );
		}
		$club  = isset( $player['club_name'] ) ? (string) $player['club_name'] : '';
		$title = isset( $player['title'] ) ? (string) $player['title'] : '';
	}
	$rating_data = ECF_Client::get_rating( $code, $domain );
	if ( ! is_wp_error( $rating_data ) && is_array( $rating_data ) ) {
		$value = $rating_data['revised_rating'] ?? ( $rating_data['original_rating'] ?? '' );
		if ( '' !== $value && null !== $value ) {
			$rating = (string) (int) $value;
		}
	}
	return array( 'name' => trim( $title . ' ' . $name ), 'rating' => $rating, 'club' => $club );
}

/** The games as the rating chart reads them: dated points of the player's rating. */
function games( $code, $domain, $limit ) {
	$games = ECF_Client::get_games( $code, $domain, $limit );
	if ( is_wp_error( $games ) ) {
		return array( 'error' => $games->get_error_message() );
	}
	$points = array();
	foreach ( $games as $game ) {
		if ( empty( $game['game_date'] ) || ! isset( $game['player_rating'] ) || '' === $game['player_rating'] ) {
			continue;
		}
		$points[] = array( $game['game_date'], (float) $game['player_rating'] );
	}
	usort( $points, fn( $a, $b ) => strcmp( $a[0], $b[0] ) );
	$scores = array_map( fn( $game ) => isset( $game['score'] ) ? (string) $game['score'] : '', $games );
	return array( 'count' => count( $games ), 'points' => $points, 'scores' => $scores );
}

/** The older REST suggester over data.players. */
function suggest( $name ) {
	$found = ECF_Client::search_players( $name );
	if ( is_wp_error( $found ) ) {
		return array( 'error' => $found->get_error_message() );
	}
	$out = array();
	foreach ( $found as $player ) {
		$code = ! empty( $player['ECF_code'] ) ? $player['ECF_code'] : ( $player['player_no'] ?? '' );
		$full = ! empty( $player['full_name'] ) ? $player['full_name'] : ( $player['name'] ?? '' );
		if ( '' === (string) $code || '' === (string) $full ) {
			continue;
		}
		$out[] = array( 'code' => (string) $code, 'name' => (string) $full, 'club' => (string) ( $player['club_name'] ?? '' ) );
	}
	return $out;
}

/** member-audit: a code the ECF knows is valid, a 4xx but 408/429 is unknown, else an error. */
function verify( $code ) {
	$player = ECF_Client::get_player_by_code( $code );
	if ( ! is_wp_error( $player ) ) {
		return array( 'verdict' => 'valid' );
	}
	$data   = $player->get_error_data();
	$status = is_array( $data ) && isset( $data['status'] ) ? (int) $data['status'] : 0;
	$found  = 'ecf_api_error' === $player->get_error_code() && $status >= 400 && $status < 500 && 408 !== $status && 429 !== $status;
	return array( 'verdict' => $found ? 'unknown' : 'error', 'status' => $status, 'message' => $player->get_error_message() );
}

$args    = array_slice( $argv, 1 );
$command = array_shift( $args );
switch ( $command ) {
	case 'club-results':
		$shown = club_results( ...$args );
		break;
	case 'featured-player':
		$shown = featured_player( ...$args );
		break;
	case 'games':
		$shown = games( ...$args );
		break;
	case 'club-ratings':
		$shown = ECF_Client::get_club_ratings( $args[0], $args[1], array_slice( $args, 2 ) );
		$shown = is_wp_error( $shown ) ? array( 'error' => $shown->get_error_message() ) : $shown;
		break;
	case 'suggest':
		$shown = suggest( ...$args );
		break;
	case 'verify':
		$shown = verify( ...$args );
		break;
	default:
		fwrite( STDERR, "unknown command $command\n" );
		exit( 2 );
}
echo json_encode( $shown, JSON_UNESCAPED_UNICODE ), "\n";
